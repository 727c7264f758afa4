"""dbce: Diff-Based Content Extraction from Python.

Clean text from web archives (WARC/ARC), single HTML pages and whole sites, by the same code
as the ``dbce`` command line:

- :class:`ArchiveReader` iterates a WARC/ARC file's records (:class:`Record`, with byte
  offsets) and the damaged stretches it had to skip (:class:`Skip`);
- :func:`extract` gives the main content of one page (as ``dbce extract``);
- :func:`clean_site` cleans one site's pages against each other (as ``dbce run`` does);
- :func:`run` runs the whole pipeline over archives (as ``dbce run``);
- :class:`MinHash` is ``datasketch.MinHash``, value for value.

See docs/PYTHON.md in the repository.
"""

from ._dbce import (
    ArchiveReader,
    DbceError,
    MinHash,
    Record,
    Skip,
    __version__,
    clean_site,
    extract,
    run,
)

__all__ = [
    "ArchiveReader",
    "DbceError",
    "MinHash",
    "Record",
    "Skip",
    "__version__",
    "clean_site",
    "extract",
    "run",
]
