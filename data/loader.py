"""Reading preference-matrix files and loading datasets by name or path.

File formats (``#`` lines anywhere are header lines; blank lines are ignored):
  * ``.txt``: K rows of K whitespace-separated numbers, or the C++ harness format
    whose first token is the integer K followed by K*K numbers in row-major order;
  * ``.csv``: K rows of K comma-separated numbers.
An optional header line ``# labels: l1 l2 ... lK`` gives the original arm labels.
"""

import hashlib
import os
import reprlib
from pathlib import Path

from .dataset import Dataset, dataset_from_matrix
from .synthetic import make_copeland_500

MATRICES_DIR = Path(__file__).resolve().parent / "matrices"
LABELS_PREFIX = "# labels:"
GENERATED = {"copeland500": make_copeland_500}
SUFFIXES = (".txt", ".csv")
# Datasets already loaded in this process, by (name or path as given, digest of the file's bytes or
# "generated", tol).  A Dataset is immutable (frozen, P read-only), so one object can be handed out again; the
# digest of the bytes makes an edited file load afresh.
_LOADED = {}


def _parse_number(token, path, lineno):
    """float(token), or ValueError naming the file, line and token."""
    try:
        return float(token)
    except ValueError:
        raise ValueError(f"{path}, line {lineno}: {token!r} is not a number") from None


def _cpp_layout(rows, path):
    """Reshape the C++ format (integer K, then K*K numbers) into (K, K rows), or raise ValueError."""
    flat = [x for r in rows for x in r]
    K = int(flat[0]) if flat and flat[0].is_integer() and flat[0] >= 1 else 0
    if not K or len(flat) != 1 + K * K:
        lengths = sorted({len(r) for r in rows})
        raise ValueError(f"{path}: neither a K x K matrix ({len(rows)} rows of {lengths} numbers) "
                         "nor 'K then K*K numbers'")
    return K, [flat[1 + i * K: 1 + (i + 1) * K] for i in range(K)]


def read_matrix_file(path):
    """Parse a matrix file (format in the module docstring) without validating it.

    Returns ``(rows, labels, header)``: a list of K lists of K floats, the tuple of
    labels (None if there is no labels line) and the tuple of ``#`` lines.
    Raises ValueError if the file is missing, has an unknown suffix, holds a
    non-number, or is neither a K x K table nor the C++ "K then K*K numbers" format.
    """
    path = Path(path)
    return _parse_matrix_text(_read_matrix_text(path), path)


def _read_matrix_text(path: Path) -> str:
    """The text of the matrix file ``path``; ValueError for an unknown suffix, a missing file or bytes that
    are not UTF-8."""
    if path.suffix not in SUFFIXES:
        raise ValueError(f"{path}: unsupported file type {path.suffix!r} (expected one of {', '.join(SUFFIXES)})")
    if not path.is_file():
        raise ValueError(f"no such matrix file: {path}")
    try:
        return path.read_text(encoding="utf-8-sig")  # a byte-order mark, as some editors write, is not data
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not a text matrix file (byte {error.start} is not UTF-8)") from None


def _parse_matrix_text(content: str, path: Path):
    """``read_matrix_file``'s result for the text ``content`` of the file ``path`` (named in its errors)."""
    header, labels, rows = [], None, []
    sep = "," if path.suffix == ".csv" else None
    for lineno, line in enumerate(content.splitlines(), start=1):
        text = line.strip()
        if text.startswith("#"):
            header.append(text)
            if text.startswith(LABELS_PREFIX):
                labels = tuple(text[len(LABELS_PREFIX):].split())
            continue
        if text:
            rows.append([_parse_number(tok.strip(), path, lineno) for tok in text.split(sep)])
    K = len(rows)
    if not (K and all(len(r) == K for r in rows)):
        K, rows = _cpp_layout(rows, path)
    if labels is not None and len(labels) != K:
        raise ValueError(f"{path}: labels line has {len(labels)} labels for K = {K} arms")
    return rows, labels, tuple(header)


def dataset_names():
    """Sorted names accepted by ``load_dataset``: the file stems in data/matrices plus generated datasets."""
    stems = {p.stem for p in MATRICES_DIR.iterdir() if p.suffix in SUFFIXES}
    return sorted(stems | set(GENERATED))


def load_dataset(name_or_path, tol=1e-3):
    """Load a dataset by name (see ``dataset_names``) or from a .txt/.csv path.

    A string is treated as a path if it ends in .txt/.csv or contains a path
    separator; ``os.PathLike`` objects are always paths.  The matrix is checked by
    ``validate_preference_matrix`` (pairs within ``tol`` of summing to 1 are
    renormalised, recorded in ``Dataset.renormalised`` and warned about).
    Raises ValueError for an unknown name (listing the available ones), a missing
    or malformed file, a file name the locale could not decode, or an invalid matrix.  Loading the same name, or a
    file with the same bytes, again in one process returns the same (immutable) Dataset without parsing it again.
    """
    if isinstance(name_or_path, os.PathLike):
        path = Path(name_or_path)
    elif isinstance(name_or_path, str):
        is_path = name_or_path.endswith(SUFFIXES) or "/" in name_or_path or os.sep in name_or_path
        path = Path(name_or_path) if is_path else None
    elif isinstance(name_or_path, Dataset):
        raise ValueError(f"dataset must be a name or a path, got the Dataset {name_or_path.name!r} itself "
                         "(run_one takes a Dataset; a Line needs a name or a matrix file)")
    else:
        raise ValueError(f"dataset must be a name or a path, got {reprlib.repr(name_or_path)}")
    if path is None:
        name = name_or_path
        if name in GENERATED:
            key = (name, "generated", tol)
            if key not in _LOADED:
                maker = GENERATED[name]
                source = f"generated by data.synthetic.{maker.__name__}() with its default magnitudes"
                _LOADED[key] = dataset_from_matrix(maker(), name, source=source, tol=tol)
            return _LOADED[key]
        candidates = [MATRICES_DIR / f"{name}{suffix}" for suffix in SUFFIXES]
        found = [p for p in candidates if p.is_file()]
        if not found:
            raise ValueError(f"unknown dataset {name!r}; available: {', '.join(dataset_names())}")
        path = found[0]
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:  # bytes of a name the locale could not decode (LC_ALL=C, an accented name)
        raise ValueError(f"matrix file {str(path)!r}: its name is not text in this locale's encoding; rename it or "
                         f"run under a UTF-8 locale (e.g. LC_ALL=C.UTF-8)") from None
    content = _read_matrix_text(path)
    key = (str(path), hashlib.sha1(content.encode()).hexdigest(), tol)
    if key not in _LOADED:
        rows, labels, header = _parse_matrix_text(content, path)
        _LOADED[key] = dataset_from_matrix(rows, path.stem, labels=labels, source=str(path), header=header, tol=tol)
    return _LOADED[key]
