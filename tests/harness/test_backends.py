"""What a local dask cluster closed by an error or a signal may print: the one line of the interrupt, nothing from
the loggers of its shutdown (``reproduce.harness.backends``)."""

import asyncio
import gc
import logging
import time
import warnings

import pytest
from joblib import Parallel, delayed

from dts_reproduction.reproduce.harness import backends, runner


@pytest.fixture
def restored_loggers():
    """Every logger's ``disabled`` flag as it was before the test."""
    names = [*backends.CLOSING_LOGGERS, *logging.root.manager.loggerDict]
    before = {name: logging.getLogger(name).disabled for name in names}
    yield
    for name, disabled in before.items():
        logging.getLogger(name).disabled = disabled


def test_an_unretrieved_timeout_of_the_closing_event_loop_logs_nothing(restored_loggers, caplog):
    """Under load, SIGTERM of a --local-cluster run printed asyncio's "Future exception was never retrieved" and
    a TimeoutError above its one line (seen in a CI replica on a fresh clone)."""
    logging.getLogger("distributed.comm").disabled = False
    caplog.set_level(logging.DEBUG)
    backends._silence_dask_logs()
    loop = asyncio.new_event_loop()
    try:
        future = loop.create_future()
        future.set_exception(TimeoutError("Timeout"))
        del future  # never retrieved: asyncio logs it when the future is collected
        gc.collect()
    finally:
        loop.close()
    assert [record.getMessage() for record in caplog.records] == []
    assert logging.getLogger("distributed.comm").disabled


def test_stopping_the_workers_prints_no_joblib_warning():
    # joblib warned "N tasks which were still being processed by the workers have been cancelled" beside the
    # run's one "interrupted" line in about 10 of 25 interrupts.
    jobs = Parallel(n_jobs=2, backend="threading", return_as="generator_unordered")(
        delayed(time.sleep)(0.2) for _ in range(8))
    next(jobs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runner._stop_workers(jobs, "threading")
    assert [str(warning.message) for warning in caught] == []
