"""Where a block of work runs: the joblib backends that run the runner's chunks correctly, and a dask
cluster (a scheduler to connect to, or a LocalCluster started here) for the duration of a block
(docs/harness.md, "Module map"; README "Running on several machines")."""

import logging
import signal
import warnings
from contextlib import contextmanager

from dts_reproduction.reproduce.harness.interrupt import SIGNALS
from dts_reproduction.reproduce.harness.settings import Settings
from dts_reproduction.reproduce.harness.workers import helpers_started, start_resource_trackers

BACKENDS = ("loky", "dask", "threading", "sequential")  # joblib backends that run our chunks correctly
SCHEDULER_TIMEOUT_S = 10  # an unreachable scheduler fails after this many seconds


@contextmanager
def backend_context(settings: Settings):
    """For ``settings.backend`` "dask": connect to the dask scheduler at ``settings.scheduler`` or start a
    loopback LocalCluster of ``settings.local_cluster`` worker processes for the duration of the block; a
    no-op for the local backends.  An unreachable scheduler, or one without any worker, is a ValueError after
    ``SCHEDULER_TIMEOUT_S`` seconds; "dask" without either is a ValueError."""
    backend, scheduler, local_cluster = settings.backend, settings.scheduler, settings.local_cluster
    if backend != "dask":
        yield
        return
    if not scheduler and not local_cluster:
        raise ValueError("--backend dask needs --scheduler ADDRESS or --local-cluster N")
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ValueError("--backend dask needs the 'dask[distributed]' package "
                         "(pip install 'dask[distributed]')") from None
    if scheduler:
        try:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT_S)
        except (OSError, TimeoutError, ValueError, TypeError) as error:
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise ValueError(f"cannot reach dask scheduler {scheduler} within {SCHEDULER_TIMEOUT_S} s "
                             f"({reason})") from None
        with client:
            try:
                client.wait_for_workers(1, timeout=SCHEDULER_TIMEOUT_S)
            except (TimeoutError, OSError):
                raise ValueError(f"dask scheduler {scheduler} has no workers (waited {SCHEDULER_TIMEOUT_S} s; "
                                 f"start some with: dask worker {scheduler} --nthreads 1)") from None
            yield
        return
    # silence_logs: the workers log every task a signal cancels, and a busy port 8787 is no news.  Its workers (and
    # the event-loop thread that starts them) ignore the group's Ctrl-C and hang-up: closing the cluster stops them.
    start_resource_trackers(SIGNALS, loky=False)
    with warnings.catch_warnings(), helpers_started((signal.SIGINT, signal.SIGHUP)):
        warnings.filterwarnings("ignore", message="Port 8787 is already in use")
        cluster = LocalCluster(n_workers=local_cluster, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None, silence_logs=logging.ERROR)
    with cluster, Client(cluster):
        try:
            yield
        except BaseException:
            _silence_dask_logs()  # closing on an error or a signal: its one line says it all
            raise


CLOSING_LOGGERS = ("distributed", "tornado", "dask", "asyncio")


def _silence_dask_logs() -> None:
    """Mute the loggers of CLOSING_LOGGERS and their children in this process: the tasks cancelled while a cluster
    closes are logged as errors, with tracebacks, and on a loaded machine a connection attempt that times out while
    the event loop stops is logged by asyncio ("Future exception was never retrieved ... TimeoutError")."""
    for name in [*CLOSING_LOGGERS, *logging.root.manager.loggerDict]:
        if name.split(".")[0] in CLOSING_LOGGERS:
            logging.getLogger(name).disabled = True
