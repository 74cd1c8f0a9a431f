"""A figures folder that fills while a command writes its outputs: one line naming the file and the cause, exit
status 1 (an I/O failure while working, ``reproduce.cli.arguments.main_guard``), and none of the figure's files
left half-new (``reproduce.harness.atomic.atomic_group``)."""

import errno
import os
import subprocess
import sys
from pathlib import Path

import matplotlib.figure
import pytest

from dts_reproduction.reproduce.harness.atomic import atomic_group, write_text_atomic
from tests.scripts import run_script

ROOT = Path(__file__).resolve().parents[2]
NO_SPACE = OSError(errno.ENOSPC, "No space left on device")


def test_a_group_of_files_appears_together_or_not_at_all(tmp_path):
    (tmp_path / "b.txt").write_text("old")
    with pytest.raises(OSError) as error, atomic_group(tmp_path):
        write_text_atomic(tmp_path / "a.txt", "new")
        write_text_atomic(tmp_path / "b.txt", "new")
        write_text_atomic(tmp_path / "c" / "d.txt", "new")  # not directly in the folder: written at once
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "e.txt"))
    assert error.value.errno == errno.ENOSPC
    assert sorted(os.listdir(tmp_path)) == ["b.txt", "c"] and (tmp_path / "c" / "d.txt").read_text() == "new"
    assert (tmp_path / "b.txt").read_text() == "old"
    with atomic_group(tmp_path):
        write_text_atomic(tmp_path / "a.txt", "new")
        assert not (tmp_path / "a.txt").exists()
    assert (tmp_path / "a.txt").read_text() == "new"


def test_a_full_figures_folder_is_one_line_and_leaves_no_partial_set(tmp_path, monkeypatch, capsys):
    savefig = matplotlib.figure.Figure.savefig

    def full_after_png(self, path, **kwargs):
        """The PNG fits; the PDF fills the disk, and matplotlib's clean-up then fails on its half-made stream."""
        if str(path).endswith(".pdf"):
            Path(path).write_bytes(b"%PDF-1.4 half")
            try:
                raise NO_SPACE
            except OSError:
                raise AttributeError("'Stream' object has no attribute 'pos'") from None
        return savefig(self, path, **kwargs)

    figures = tmp_path / "f"
    figures.mkdir()
    (figures / "custom.png").write_bytes(b"the old figure")
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", full_after_png)
    with pytest.raises(SystemExit) as done:
        run_script("reproduce/run.py", ["--dataset", "mslr5_condorcet", "--algorithms", "dts", "--runs", "2",
                                        "--horizon", "200", "--n-jobs", "1", "--no-progress", "--out",
                                        str(tmp_path / "r"), "--figures", str(figures)])
    assert done.value.code == 1
    assert capsys.readouterr().err == f"error: {figures / 'custom.pdf'}: No space left on device\n"
    assert os.listdir(figures) == ["custom.png"] and (figures / "custom.png").read_bytes() == b"the old figure"


@pytest.mark.process
def test_a_real_full_filesystem_as_the_figures_folder(tmp_path):
    """The same on an 80 kB tmpfs, room for the PNG (72 kB) but not the PDF after it (mounting needs root: skipped
    otherwise), the command run as a process."""
    figures = tmp_path / "f"
    figures.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=80k", "tmpfs", str(figures)],
                      capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    try:
        done = subprocess.run([sys.executable, "reproduce/run.py", "--dataset", "mslr5_condorcet", "--algorithms",
                               "dts", "--runs", "2", "--horizon", "500", "--n-jobs", "1", "--no-progress", "--out",
                               str(tmp_path / "r"), "--figures", str(figures)],
                              cwd=ROOT, capture_output=True, text=True, timeout=600)
        left = os.listdir(figures)
    finally:
        subprocess.run(["umount", str(figures)], check=True)
    assert done.returncode == 1
    assert done.stderr == f"error: {figures / 'custom.pdf'}: No space left on device\n"
    assert left == []
