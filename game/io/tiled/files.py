"""Safe access to the files a Tiled map refers to: path checks, size caps, hardened XML.

Every file a map pulls in (tilesets, templates, images) is named relative to the file
that mentions it, must stay inside the *asset root*, must be a regular file and must be
small enough. XML is parsed with defusedxml (no entity declarations, no external
entities) while counting elements, so a hostile file fails fast with one clear message
instead of hanging or eating memory.
"""
from __future__ import annotations

import errno
import io
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

import defusedxml.ElementTree as SafeET
from defusedxml.common import DefusedXmlException, DTDForbidden
from defusedxml.ElementTree import DefusedXMLParser

from ...core.values.errors import DataFileError
from .roots import AssetRoot, default_root, named_root

MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_XML_ELEMENTS = 200_000
MAX_XML_DEPTH = 64
# One element's start tag (its attributes) or one run of text, outside tile layer data. Tiled's
# names, titles and property values are far smaller; expat needs time quadratic in a tag's length
# when it arrives in pieces, so longer ones are refused before parsing.
MAX_ITEM_BYTES = 1024 * 1024
_BULK_TEXT_TAGS = (b"data", b"chunk")  # tile layer data: its size is checked against the map's

_XML_DECLARED_ENCODING = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']")


@dataclass(frozen=True)
class FileRef:
    """A file as the user sees it (`shown`, for messages) and where it really is (`real`)."""

    shown: str
    real: Path

    @property
    def folder(self) -> Path:
        return self.real.parent


def map_file(path: str | os.PathLike) -> FileRef:
    """The map file the caller named. It may be anywhere; what it refers to may not."""
    shown = str(path)
    real = resolve_path(Path(path), shown, "", "map file")
    _require_regular_file(shown, real, "", "map file")
    return FileRef(shown, real)


def resolve_asset_root(root: str | os.PathLike, shown_map: str) -> Path:
    real = resolve_path(Path(root), shown_map, "asset root", f"asset root {root}")
    if not real.is_dir():
        raise DataFileError(shown_map, "asset root", f"{root} is not a folder")
    return real


def asset_root_for(ref: FileRef, named: str | os.PathLike | None) -> AssetRoot:
    """The named asset root (checked to be a folder), or the map's default one (tiled/roots)."""
    if named is not None:
        return named_root(resolve_asset_root(named, ref.shown))
    return default_root(ref.real)


def resolve_reference(
    reference: str | None, referrer: FileRef, root: AssetRoot, where: str, what: str, kinds: tuple[str, ...] = ()
) -> FileRef:
    """Resolve `reference` (as written in `referrer`) to a regular file inside `root`; `kinds`,
    when given, are the file name endings such a file may have."""
    if reference is None or not reference.strip():
        raise DataFileError(referrer.shown, where, f"the {what} has no file name (source is empty)")
    if "\0" in reference:
        raise DataFileError(referrer.shown, where, f"the {what} name contains a NUL character")
    if _is_absolute(reference):
        raise DataFileError(
            referrer.shown, where,
            f"the {what} '{reference}' is an absolute path; fivefoot only reads files inside the "
            f"asset root ({root.folder}). Keep it in or below the map's folder so Tiled saves a relative path.",
        )
    joined = os.path.normpath(os.path.join(os.path.dirname(referrer.shown), reference))
    real = resolve_path(referrer.folder / reference, referrer.shown, where, f"{what} '{reference}'")
    if not real.is_relative_to(root.folder):
        present = _is_regular_file(real)
        if not (present and root.admits(real)):  # a default root widens only to take in a real file
            missing = "" if present else f" (nor is there such a file: looked for {joined})"
            raise DataFileError(
                referrer.shown, where,
                f"the {what} '{reference}' lies outside the asset root {root.folder}{missing}; fivefoot reads "
                f"no files outside it. {_root_hint(real, root)}",
            )
    if kinds and not reference.lower().endswith(kinds):
        raise DataFileError(
            referrer.shown, where,
            f"the {what} '{reference}' is not a file a Tiled map may use as a {what} "
            f"(its name must end in {', '.join(kinds)}); point it at the {what} Tiled saved",
        )
    _require_regular_file(referrer.shown, real, where, f"{what} '{reference}'", looked_at=joined)
    return FileRef(joined, real)


def resolve_path(path: Path, shown: str, where: str, what: str) -> Path:
    """`path` with every symbolic link followed; a link loop is a DataFileError, not a RuntimeError."""
    try:
        return path.resolve()
    except RuntimeError:  # Python 3.11 and 3.12 report a loop so
        raise DataFileError(shown, where, _link_loop(what)) from None
    except ValueError:  # a lone surrogate (UnicodeEncodeError) or a NUL in the name
        raise DataFileError(shown, where, f"the {what} name holds characters no file name can hold "
                                          "(a lone surrogate or a NUL); rename it") from None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise DataFileError(shown, where, _link_loop(what)) from None
        raise DataFileError(shown, where, f"cannot read the {what}: {err.strerror or err}") from None


def read_capped(ref: FileRef, where: str = "", limit: int = MAX_FILE_BYTES) -> bytes:
    too_big = f"is larger than {limit // (1024 * 1024)} MiB; fivefoot refuses files this big"
    size = os.stat(ref.real).st_size
    if size > limit:  # refuse before reading a byte
        raise DataFileError(ref.shown, where, too_big)
    with open(ref.real, "rb") as handle:
        data = handle.read(size + 1)  # a file may grow after the check: the next test sees it
        if len(data) > size:
            data += handle.read(limit + 1 - len(data))
    if len(data) > limit:
        raise DataFileError(ref.shown, where, too_big)
    if not data:
        raise DataFileError(ref.shown, where, "is empty")
    return data


def read_head(ref: FileRef, size: int) -> bytes:
    with open(ref.real, "rb") as handle:
        return handle.read(size)


def parse_xml(ref: FileRef, data: bytes, expected_root: str, what: str, budget=None) -> Element:
    """Parse `data` (with expat in C where no DTD can declare entities, else defusedxml), capping element
    count and depth; `budget` (tiled/assets.LoadBudget), when given, counts the elements against the
    whole load's."""
    _require_utf8_if_declared(ref, data)
    _refuse_huge_items(ref, data)
    if budget is not None:
        budget.before_parsing(ref, data)
    elements_left = MAX_XML_ELEMENTS if budget is None else min(MAX_XML_ELEMENTS, budget.elements_left)
    # Start tags counted in the bytes before parsing (no text or attribute holds a raw '<'): a file over
    # its element cap is refused without spending the parse
    if data.count(b"<") - data.count(b"</") - data.count(b"<!") - data.count(b"<?") > elements_left:
        _too_many_elements(ref, what, elements_left, budget)
    if _without_declarations(data):
        root, count = _parse_plain(ref, data, what, elements_left, budget)
    else:
        root, count = _parse_defused(ref, data, what, elements_left, budget)
    if budget is not None:
        budget.elements_left -= count
    if root is None or root.tag != expected_root:
        found = "nothing" if root is None else f"<{root.tag[:40]}>"
        raise DataFileError(
            ref.shown, "", f"is not a Tiled {what}: its top element is {found}, expected <{expected_root}>"
        )
    return root


def _without_declarations(data: bytes) -> bool:
    """True for UTF-8 (or ASCII) text with no document type declaration: no entity can be declared
    in it (XML allows entities only in a DTD), so expat's own parser, in C, reads it as safely as
    defusedxml's, several times faster. UTF-16 and anything declaring a DTD go through defusedxml."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:4]:
        return False
    declared = _XML_DECLARED_ENCODING.match(data[:200])
    if declared and declared.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        return False
    return b"<!DOCTYPE" not in data and b"<!ENTITY" not in data


def _parse_plain(ref: FileRef, data: bytes, what: str, elements_left: int, budget) -> tuple[Element | None, int]:
    from xml.etree.ElementTree import XMLParser
    parser = XMLParser(target=TreeBuilder())
    try:
        parser.feed(data)
        root = parser.close()
    except ParseError as err:
        _not_well_formed(ref, err)
    # Elements and depth counted on the tree: the start tags counted in the bytes already bound its size.
    count = deepest = 0
    level = [root]
    while level:                # level by level: each list the elements one deeper than the last
        count += len(level)
        deepest += 1
        level = [child for element in level for child in element]
    if count > elements_left:
        _too_many_elements(ref, what, elements_left, budget)
    if deepest > MAX_XML_DEPTH:
        _too_deep(ref)
    return root, count


def _parse_defused(ref: FileRef, data: bytes, what: str, elements_left: int, budget) -> tuple[Element | None, int]:
    depth = count = 0
    root = None
    try:
        for event, element in SafeET.iterparse(io.BytesIO(data), events=("start", "end"), parser=_Parser()):
            if event == "end":
                depth -= 1
                continue
            depth += 1
            count += 1
            if root is None:
                root = element
            if count > elements_left:
                _too_many_elements(ref, what, elements_left, budget)
            if depth > MAX_XML_DEPTH:
                _too_deep(ref)
    except DefusedXmlException as err:
        raise DataFileError(
            ref.shown, "",
            f"declares XML entities or a DTD with declarations of its own ({type(err).__name__}); Tiled never "
            "writes these and fivefoot refuses them (they can expand without limit, read other files or give "
            "elements attributes the file does not show). Re-save the file from Tiled.",
        ) from None
    except DataFileError:
        raise
    except (ValueError, LookupError) as err:  # expat cannot read the declared encoding (Shift_JIS, UTF-7, ...)
        raise DataFileError(
            ref.shown, "line 1",
            f"declares a text encoding fivefoot cannot read ({short_text(str(err))}); Tiled saves UTF-8. "
            "Re-save the file from Tiled.",
        ) from None
    except ParseError as err:
        _not_well_formed(ref, err)
    return root, count


def _not_well_formed(ref: FileRef, err: ParseError):
    line, column = getattr(err, "position", (0, 0))
    reason = str(err).split(":")[0]
    raise DataFileError(
        ref.shown, f"line {line}, column {column}",
        f"is not well-formed XML ({reason}); the file may be truncated or damaged. Re-save it from Tiled.",
    ) from None


def _too_deep(ref: FileRef):
    raise DataFileError(ref.shown, "", f"nests XML elements more than {MAX_XML_DEPTH} deep; is it really a Tiled file?")


def _too_many_elements(ref: FileRef, what: str, elements_left: int, budget) -> None:
    if elements_left < MAX_XML_ELEMENTS:
        budget.too_many_elements(ref)
    raise DataFileError(
        ref.shown, "", f"has more than {MAX_XML_ELEMENTS:,} XML elements; fivefoot refuses {what} files this complex"
    )


class _Parser(DefusedXMLParser):
    """defusedxml's parser, refusing entities and any DTD with an internal subset: `<!ATTLIST>` defaults
    would add attributes no element shows. A bare `<!DOCTYPE map SYSTEM "...map.dtd">`, as old Tiled
    wrote, is ignored (never fetched)."""

    def __init__(self):
        super().__init__(target=TreeBuilder(), forbid_dtd=True)

    def defused_start_doctype_decl(self, name, sysid, pubid, has_internal_subset):
        if has_internal_subset:
            raise DTDForbidden(name, sysid, pubid)


def short_text(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _require_utf8_if_declared(ref: FileRef, data: bytes) -> None:
    """Name the offending line when a file claiming UTF-8 (the XML default) is not."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return  # UTF-16 with a byte order mark: expat handles it
    declared = _XML_DECLARED_ENCODING.match(data[:200])
    if declared and declared.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        return
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise DataFileError(
            ref.shown, f"line {line}",
            f"is not valid UTF-8 text (byte 0x{data[err.start]:02x}); Tiled saves UTF-8, so the file "
            "is damaged or not a Tiled file. Re-save it from Tiled.",
        ) from None


def _refuse_huge_items(ref: FileRef, data: bytes) -> None:
    """Refuse a start tag or text run over MAX_ITEM_BYTES, in one linear pass over the bytes.

    No tag or text can hold a '<' (XML escapes it), so the distance from one '<' to the next
    bounds the length of a tag plus the text after it. Only tile layer data may be longer.
    """
    pieces = data.split(b"<")   # pieces[k], k >= 1: what follows the k-th '<', up to the next
    if len(pieces) == 1:
        return  # the parser says what is wrong
    if max(map(len, pieces)) >= MAX_ITEM_BYTES:  # rare: look at each long one
        start = len(pieces[0])  # where the '<' before the piece stands
        for piece in pieces[1:]:
            if len(piece) + 1 > MAX_ITEM_BYTES:
                _refuse_unless_bulk_text(ref, data, start)
            start += len(piece) + 1
    if len(pieces[0]) > MAX_ITEM_BYTES:
        raise DataFileError(ref.shown, "line 1", "starts with over 1 MiB of text before any XML element; "
                                                 "is it really a Tiled file?")


def _refuse_unless_bulk_text(ref: FileRef, data: bytes, start: int) -> None:
    """The item from the '<' at `start` runs over MAX_ITEM_BYTES: refused unless it is tile layer data."""
    head = data[start + 1:start + 65]
    tag = re.match(rb"[^\s/>]*", head).group(0)
    tag_end = data.find(b">", start, start + MAX_ITEM_BYTES)
    if tag_end >= 0 and tag in _BULK_TEXT_TAGS:
        return
    line = data.count(b"\n", 0, start) + 1
    name = tag.decode("utf-8", "replace")[:40] or "?"
    limit = f"{MAX_ITEM_BYTES // (1024 * 1024)} MiB"
    what = ("an attribute value (a name, title or property value)" if tag_end < 0
            else "text (a multi-line property value, say)")
    raise DataFileError(
        ref.shown, f"line {line}",
        f"the <{name}> element holds {what} over {limit} long; fivefoot allows at most {limit} "
        "per element outside tile layer data. Shorten it in Tiled.",
    )


def _require_regular_file(shown: str, real: Path, where: str, what: str, looked_at: str | None = None) -> None:
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        place = f" (looked for {looked_at})" if looked_at else ""
        raise DataFileError(shown, where, f"the {what} does not exist{place}") from None
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise DataFileError(shown, where, _link_loop(what)) from None
        raise DataFileError(shown, where, f"cannot read the {what}: {err.strerror}") from None
    if not stat.S_ISREG(mode):
        raise DataFileError(shown, where, f"the {what} is not a regular file")


def _link_loop(what: str) -> str:
    return f"the {what} is a symbolic link loop (links that lead back to themselves); replace it with the real file"


def _is_absolute(reference: str) -> bool:
    if reference.startswith(("/", "\\")) or "://" in reference or reference.lower().startswith("file:"):
        return True
    return PurePosixPath(reference).is_absolute() or PureWindowsPath(reference).is_absolute() or bool(
        PureWindowsPath(reference).drive
    )


def _root_hint(real: Path, root: AssetRoot) -> str:
    try:
        common = Path(os.path.commonpath([real, root.folder]))
    except ValueError:
        common = None
    if common is not None and common != Path(common.anchor):
        return (f"Move the file into the map's folder or below it; or, if the map belongs to a game folder "
                f"that holds both, name that folder ({common}) as the asset root: `--asset-root DIR` on "
                "`play`, `check-map` and every command given a map, or asset_root in a scenario's [map] table.")
    return "Move the file into the map's folder or below it."


def _is_regular_file(real: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(real).st_mode)
    except OSError:
        return False
