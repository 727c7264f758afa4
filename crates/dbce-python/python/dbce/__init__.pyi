"""Type stubs of the dbce package (the native module ``dbce._dbce``)."""

import os
from typing import Any, Iterator, List, Optional, Sequence, Tuple, Union

__version__: str

StrPath = Union[str, "os.PathLike[str]"]

class DbceError(Exception):
    """A page, archive or configuration dbce cannot work with."""

class Record:
    """One record of an archive."""

    @property
    def record_type(self) -> str:
        """``WARC-Type``: ``response``, ``request``, ``warcinfo``, ``resource``, ``revisit``, ..."""
    @property
    def record_id(self) -> Optional[str]:
        """``WARC-Record-ID``, or ``None`` (ARC records have none)."""
    @property
    def target_uri(self) -> Optional[str]:
        """``WARC-Target-URI``, or ``None``."""
    @property
    def date(self) -> Optional[str]:
        """``WARC-Date`` as written, or ``None``."""
    @property
    def offset(self) -> int:
        """Byte offset of the record in the file (its gzip member when compressed)."""
    @property
    def length(self) -> int:
        """Length in the file from ``offset`` (the compressed member's length when compressed)."""
    @property
    def shared(self) -> bool:
        """Whether the record shares its gzip member with others (a whole-file gzip)."""
    @property
    def headers(self) -> List[Tuple[str, str]]:
        """The header fields, in order."""
    @property
    def body(self) -> Optional[bytes]:
        """The record's block, or ``None`` when it was too large and passed over unread."""
    @property
    def digests_ok(self) -> Optional[bool]:
        """Whether the digests match (``verify_digests=True`` only); ``None`` when unknown."""
    def html(self) -> Optional[str]:
        """The captured page's HTML decoded as ``dbce run`` decodes it, or ``None``."""

class Skip:
    """Bytes of an archive that could not be read as a record."""

    @property
    def offset(self) -> int:
        """Byte offset in the file where the skipped bytes begin."""
    @property
    def reason(self) -> str:
        """Why they were skipped (e.g. ``bad-gzip-member``)."""
    @property
    def record_id(self) -> Optional[str]:
        """The skipped record's ``WARC-Record-ID``, when its header could be read."""

class ArchiveReader(Iterator[Union[Record, Skip]]):
    """Reads a WARC or ARC file (gzip, zstd or uncompressed) and yields a ``Record`` for every
    record and a ``Skip`` for every stretch of bytes that is not one, in file order."""

    def __init__(self, path: StrPath, verify_digests: bool = False) -> None: ...
    def __iter__(self) -> "ArchiveReader": ...
    def __next__(self) -> Union[Record, Skip]: ...

class MinHash:
    """``datasketch.MinHash(num_perm, seed, scheme=scheme)``, value for value."""

    def __init__(self, num_perm: int = 128, seed: int = 1, scheme: str = "affine32") -> None: ...
    def update(self, token: Union[bytes, str]) -> None:
        """Adds one token (``str`` as UTF-8)."""
    def update_batch(self, tokens: Sequence[Union[bytes, str]]) -> None:
        """Adds every token, the GIL released while hashing."""
    def digest(self) -> List[int]:
        """The hash values."""
    @property
    def hashvalues(self) -> List[int]:
        """The hash values."""
    @property
    def seed(self) -> int: ...
    @property
    def scheme(self) -> str: ...
    def jaccard(self, other: "MinHash") -> float:
        """The estimated Jaccard similarity; ``ValueError`` for incompatible sketches."""
    def merge(self, other: "MinHash") -> None:
        """Makes this sketch the union of both."""
    def is_empty(self) -> bool: ...
    def copy(self) -> "MinHash": ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...

def extract(
    html: Union[str, bytes],
    url: Optional[str] = None,
    format: str = "txt",
    config: Optional[StrPath] = None,
) -> str:
    """The main content of one page, classified alone as ``dbce run`` classifies a page
    without partners. ``format``: ``"txt"``, ``"markdown"`` or ``"json"``."""

def clean_site(
    pages: Sequence[Tuple[str, str, Union[str, bytes]]],
    markdown: bool = False,
    config: Optional[StrPath] = None,
) -> List[dict[str, Any]]:
    """Cleans one site's ``(url, date, html)`` pages against each other as ``dbce run`` does;
    one dict per page, in order (the JSONL fields, or ``{"url", "date", "skipped"}``)."""

def run(
    inputs: Sequence[StrPath],
    out: StrPath,
    work: Optional[StrPath] = None,
    threads: Optional[int] = None,
    shards: Optional[int] = None,
    markdown: bool = False,
    config: Optional[StrPath] = None,
) -> dict[str, Any]:
    """Runs the whole pipeline as ``dbce run`` does; returns ``report.json`` as a dict."""
