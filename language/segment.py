"""Segmentation for the offline reader: language detection, jieba tokens and POS tags.

jieba is wrapped here so the rest of the package never touches it directly: it is
initialised lazily (loading its dictionary takes about half a second), silenced,
and given a small user dictionary of tech/product names (n8n, LangGraph, Node.js)
and everyday words it mis-cuts or mis-tags (西红柿 as a person name, 精通 as an
adjective). A private ``jieba.Tokenizer`` is used so these additions never leak into
other code in the same process that uses the global jieba instance.

Start-up: jieba's own cache (``jieba.cache`` in the temp directory) holds only the prefix
dictionary; the part-of-speech table is re-read from ``dict.txt`` (349k lines) and the user
words re-added in every process, which cost more than the cache saves. The finished
tokenizer state (prefix dictionary with the user words, their tags) is therefore kept in
one file of our own, ``elephant-<uid>-jieba-<digest>.cache`` in the temp directory, next
to jieba's; the digest covers jieba's version, its dictionary and our user words, so a
change to any of them builds a new file instead of reading a stale one. The file is cut by
a word's first character and a cut is unmarshalled when a lookup first needs it
(``_LazyTable``): a question touches a few dozen of ~12,000 cuts, so a process pays
milliseconds, not the quarter second the whole table costs. Importing
``jieba.posseg`` also re-reads ``dict.txt`` for jieba's global tagger; the cache restores
that table too (``_import_posseg``), identical to the one jieba would build.
"""

from __future__ import annotations

import functools
import hashlib
import io
import logging
import marshal
import os
import re
import stat
import struct
import sys
import tempfile
import threading
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from elephant_broker.language import types as _types
from elephant_broker.language.lexicon import words as lexicon_words

if TYPE_CHECKING:
    import jieba
    import jieba.posseg

_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9+#._\-']*$")
_WORD_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#]*(?:[.'’\-][A-Za-z0-9+#]+)*\+*")
_PUNCT_RE = re.compile(r"^[\s\W_]+$", re.UNICODE)

# fmt: off
# Words jieba should keep whole, with the tag the extractor relies on. Verbs are
# tagged v because jieba calls 精通 an adjective and 任教 a noun; the foods because
# it calls 西红柿 a person name.
_EXTRA_WORDS: tuple[tuple[str, str], ...] = (
    ("LangGraph", "nz"), ("LangChain", "nz"), ("LangSmith", "nz"), ("Node.js", "nz"), ("n8n", "nz"),
    ("Neo4j", "nz"), ("FalkorDB", "nz"), ("C++", "nz"), ("C#", "nz"), ("PyTorch", "nz"), ("FastAPI", "nz"),
    ("ChatGPT", "nz"), ("DeepSeek", "nz"), ("OpenAI", "nt"), ("字节跳动", "nt"), ("阿里巴巴", "nt"),
    ("腾讯", "nt"), ("清华大学", "nt"), ("北京大学", "nt"), ("浙江大学", "nt"), ("复旦大学", "nt"),
    ("工作流", "n"), ("节点", "n"), ("首都", "n"), ("导师", "n"), ("水果", "n"), ("后端", "n"), ("前端", "n"),
    ("全栈", "n"), ("程序员", "n"), ("工程师", "n"), ("产品经理", "n"), ("数据库", "n"), ("大模型", "n"),
    ("知识图谱", "n"), ("机器学习", "n"), ("人工智能", "n"), ("编程", "vn"), ("自动化", "n"), ("精通", "v"),
    ("任教", "v"), ("擅长", "v"), ("就读", "v"), ("就职", "v"), ("任职", "v"), ("毕业", "v"), ("出生", "v"),
    ("居住", "v"), ("位于", "v"), ("来自", "v"), ("搭建", "v"), ("喜欢", "v"), ("讨厌", "v"), ("热爱", "v"),
    ("最爱", "v"), ("上班", "v"), ("入职", "v"), ("创办", "v"), ("创立", "v"), ("搬到", "v"), ("搬去", "v"),
    ("移居", "v"), ("定居", "v"), ("掌握", "v"), ("支持", "v"), ("包含", "v"), ("使用", "v"), ("养", "v"),
    ("开发", "v"), ("感兴趣", "v"), ("过敏", "v"), ("嫁给", "v"), ("实习", "v"), ("我家", "r"),
    ("读研", "vn"), ("读博", "vn"), ("超市", "n"), ("家乡", "n"), ("家人", "n"),
    # Meetings jieba cuts or tags as verbs (开组 + 会, 开 + 年 + 会, 例会/v): 开 + 组会.
    ("组会", "n"), ("例会", "n"), ("周会", "n"), ("晨会", "n"), ("早会", "n"), ("班会", "n"), ("年会", "n"),
    ("教书", "v"), ("报到", "v"),
)
# fmt: on

# Words that must win against a competing cut (我/家养 instead of 我家/养).
_FORCED_FREQ: dict[str, int] = {
    "我家": 200000, "家乡": 200000, "家人": 200000,
    "组会": 2000, "周会": 2000, "晨会": 2000, "早会": 2000, "班会": 2000, "年会": 2000, "例会": 2000,
}  # fmt: skip


def user_words() -> list[tuple[str, str]]:
    """Return the user dictionary: gazetteer names plus the fixed extra words.

    Returns:
        ``(word, jieba tag)`` pairs. Only names without spaces can be jieba words;
        multi-word latin names (VS Code) are re-joined by the extractor instead.
    """
    words: dict[str, str] = {}
    for name in _types.FOODS:
        if _CJK_RE.search(name):
            words[name] = "n"
    for name in _types.TOOLS | _types.LANGUAGES:
        if " " not in name and _CJK_RE.search(name):
            words[name] = "nz"
    for name in _types.PLACES:
        if _CJK_RE.search(name):
            words[name] = "ns"
    for name in _types.ORGANIZATIONS:
        if _CJK_RE.search(name):
            words[name] = "nt"
    for name in _types.THINGS:
        if _CJK_RE.search(name):
            words[name] = "nz"
    for word, tag in _EXTRA_WORDS:
        words[word] = tag
    # 我们家 / 咱家 kept whole ("我们家养了" is not 我们 + 家养): the Reader reads them as the speaker.
    for group in lexicon_words("zh", "group_first_person"):
        words.setdefault(group, "r")
    return sorted(words.items())


_CACHE_FORMAT = 3
"""Bumped whenever the layout of the cache file changes."""


class _Jieba:
    """Lazily built private jieba tokenizer and POS tagger, its state cached on disk."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokenizer: jieba.Tokenizer | None = None
        self._tagger: jieba.posseg.POSTokenizer | None = None

    def get(self) -> tuple[jieba.Tokenizer, jieba.posseg.POSTokenizer]:
        if self._tokenizer is None or self._tagger is None:
            with self._lock:
                if self._tokenizer is None or self._tagger is None:
                    self._tokenizer, self._tagger = self._build()
        assert self._tokenizer is not None and self._tagger is not None
        return self._tokenizer, self._tagger

    def _build(self) -> tuple[jieba.Tokenizer, jieba.posseg.POSTokenizer]:
        import jieba

        # jieba logs "Building prefix dict..." at DEBUG on first use.
        jieba.setLogLevel(logging.WARNING)
        words = user_words()
        path = _cache_path(jieba, words)
        cached = _read_cache(path)
        if cached is not None:
            shards, total, originals = cached
            tags = _LazyTable(shards, 1)
            posseg = _import_posseg(jieba, shards, originals)
            tokenizer = jieba.Tokenizer()
            tokenizer.FREQ, tokenizer.total = _LazyTable(shards, 0), total
            tokenizer.initialized = True
            # The tag table already holds the user words' tags: the state POSTokenizer(tokenizer)
            # reaches after its first cut, without re-reading dict.txt.
            tagger = posseg.POSTokenizer.__new__(posseg.POSTokenizer)
            tagger.tokenizer = tokenizer
            tagger.word_tag_tab = tags
            return tokenizer, tagger
        import jieba.posseg

        tokenizer = jieba.Tokenizer()
        tokenizer.initialize()
        for word, tag in words:
            tokenizer.add_word(word, freq=_FORCED_FREQ.get(word), tag=tag)
        tagger = jieba.posseg.POSTokenizer(tokenizer)
        # dict.txt's own tags of the user words, so a later process can rebuild jieba's global table.
        originals = {word: tagger.word_tag_tab.get(word) for word, _ in words}
        tagger.makesure_userdict_loaded()
        _write_cache(path, tokenizer.FREQ, tokenizer.total, tagger.word_tag_tab, originals)
        return tokenizer, tagger


def _import_posseg(jieba_module: Any, shards: _Shards, originals: dict[str, str | None]) -> Any:
    """Import ``jieba.posseg`` without its global tagger re-reading dict.txt, when that is safe.

    The import builds ``jieba.posseg.dt``'s tag table from dict.txt (a third of a second);
    the cache holds the same table (ours minus the user words' tags), so the import is
    given an empty dictionary and the table afterwards. Only when jieba's global tokenizer
    uses the default dictionary (else its table would differ), and under its lock, so no
    other thread can initialise jieba from the empty dictionary meanwhile.
    """
    with jieba_module.dt.lock:
        if "jieba.posseg" in sys.modules or jieba_module.dt.dictionary != jieba_module.DEFAULT_DICT:
            import jieba.posseg

            return jieba.posseg
        jieba_module.dt.get_dict_file = lambda: io.BytesIO()
        try:
            import jieba.posseg
        finally:
            del jieba_module.dt.get_dict_file
        jieba.posseg.dt.word_tag_tab = _LazyTable(shards, 1, overrides=originals)
    return jieba.posseg


def _cache_path(jieba_module: Any, words: list[tuple[str, str]]) -> Path:
    """Return the cache file for this jieba, its dictionary and these user words."""
    dictionary = Path(jieba_module.__file__).parent / jieba_module.DEFAULT_DICT_NAME
    try:
        status = dictionary.stat()
        dictionary_id: tuple[object, ...] = (status.st_size, status.st_mtime_ns)
    except OSError:
        dictionary_id = ()
    key = repr((_CACHE_FORMAT, jieba_module.__version__, dictionary_id, words, sorted(_FORCED_FREQ.items())))
    digest = hashlib.sha1(key.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"elephant-{os.getuid()}-jieba-{digest}.cache"


class _Shards:
    """The cached tables cut by a word's first character, each cut unmarshalled on first touch.

    A question touches a few dozen characters of the 600k-entry dictionary; unmarshalling
    all of it cost a quarter of a second in every process, most of a warm ``elephant ask``.
    """

    def __init__(self, data: bytes, index: dict[str, tuple[int, int]]) -> None:
        self._data = data
        self._index = index
        self.lock = threading.Lock()

    def load(self, first: str) -> tuple[dict[str, int], dict[str, str]]:
        """Return the prefix-dictionary and tag entries of the words starting with ``first``."""
        place = self._index.get(first)
        if place is None:
            return {}, {}
        offset, length = place
        freq, tags = marshal.loads(self._data[offset : offset + length])
        return freq, tags

    def firsts(self) -> list[str]:
        return list(self._index)


class _LazyTable(dict):  # type: ignore[type-arg]
    """One of jieba's tables (prefix dictionary or tags) that fills itself a shard at a time.

    A dict, so jieba's own code uses it unchanged: every lookup or write first loads the
    shard of the key's first character (under the shards' lock, marked loaded only once
    merged, so a concurrent reader never sees a half-loaded shard), and anything that
    walks the whole table (iteration, ``len``, copies) loads every shard first.
    ``overrides`` replace (or, when None, remove) entries as their shard loads.
    """

    def __init__(self, shards: _Shards, part: int, overrides: dict[str, str | None] | None = None) -> None:
        super().__init__()
        self._shards = shards
        self._part = part
        self._overrides = overrides or {}
        self._loaded: set[str] = set()

    def _fill(self, key: object) -> None:
        first = key[:1] if isinstance(key, str) else ""
        if first in self._loaded:
            return
        with self._shards.lock:
            if first in self._loaded:
                return
            entries = dict(self._shards.load(first)[self._part])
            for word, value in self._overrides.items():
                if word[:1] == first:
                    if value is None:
                        entries.pop(word, None)
                    else:
                        entries[word] = value
            for word, entry in entries.items():
                dict.setdefault(self, word, entry)  # a write made before the load wins
            self._loaded.add(first)

    def _fill_all(self) -> None:
        for first in self._shards.firsts():
            self._fill(first)

    def __contains__(self, key: object) -> bool:
        self._fill(key)
        return dict.__contains__(self, key)

    def __getitem__(self, key: Any) -> Any:
        self._fill(key)
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._fill(key)
        return dict.get(self, key, default)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._fill(key)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: Any) -> None:
        self._fill(key)
        dict.__delitem__(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        self._fill(key)
        return dict.pop(self, key, *default)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        self._fill(key)
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __iter__(self) -> Any:
        self._fill_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill_all()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._fill_all()
        return dict.keys(self)

    def values(self) -> Any:
        self._fill_all()
        return dict.values(self)

    def items(self) -> Any:
        self._fill_all()
        return dict.items(self)

    def copy(self) -> dict[Any, Any]:
        self._fill_all()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._fill_all()
        return dict.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> Any:
        return (dict, (self.copy(),))


_Cached = tuple[_Shards, int, dict[str, str | None]]
_HEADER = struct.Struct("<Q")


def _read_cache(path: Path) -> _Cached | None:
    """Return the cached (shards of prefix dictionary and tags, total, dict.txt tags of the user words), or None.

    Only a regular file owned by this user is read: the temp directory is shared, and its
    sticky bit keeps others from replacing our file once it is ours. Anything unreadable
    or of the wrong shape counts as no cache, and is rebuilt. Only the small header is
    unmarshalled here; a shard when a word needs it.
    """
    try:
        status = os.lstat(path)
        if not stat.S_ISREG(status.st_mode) or status.st_uid != os.getuid():
            return None
        data = path.read_bytes()
        (header_size,) = _HEADER.unpack_from(data)
        header = marshal.loads(data[_HEADER.size : _HEADER.size + header_size])
    except (OSError, EOFError, ValueError, TypeError, struct.error):
        return None
    if not (isinstance(header, tuple) and len(header) == 3):
        return None
    total, originals, index = header
    if not (isinstance(total, int) and isinstance(originals, dict) and isinstance(index, dict)):
        return None
    start = _HEADER.size + header_size
    room = len(data) - start
    if not all(_within(place, room) for place in index.values()):
        return None
    shifted = {first: (start + offset, length) for first, (offset, length) in index.items()}
    return _Shards(data, shifted), total, originals


def _within(place: object, room: int) -> bool:
    """Return True when ``place`` is an (offset, length) pair of ints inside ``room`` bytes."""
    if not (isinstance(place, tuple) and len(place) == 2 and all(type(number) is int for number in place)):
        return False
    offset, length = place
    return offset >= 0 and length > 0 and offset + length <= room


def _write_cache(
    path: Path, freq: dict[str, int], total: int, tags: dict[str, str], originals: dict[str, str | None]
) -> None:
    """Write the cache atomically (a temporary file renamed over it); a failure only costs speed.

    Layout: an 8-byte header length, the header (total, the user words' dict.txt tags, and
    each first character's offset and length), then one marshalled (prefix entries, tag
    entries) pair per first character. Our caches for other jieba versions or user words
    are removed, so editing the gazetteers does not leave a 12 MB file behind each time.
    """
    by_first: dict[str, tuple[dict[str, int], dict[str, str]]] = {}
    for word, count in freq.items():
        by_first.setdefault(word[:1], ({}, {}))[0][word] = count
    # Tag keys as the prefix dictionary's own string objects, so marshal stores each word once.
    shared = {word: word for word in freq}
    for word, tag in tags.items():
        by_first.setdefault(word[:1], ({}, {}))[1][shared.get(word, word)] = tag
    blobs, index, offset = [], {}, 0
    for first, part in by_first.items():
        blob = marshal.dumps(part)
        index[first] = (offset, len(blob))
        offset += len(blob)
        blobs.append(blob)
    header = marshal.dumps((total, originals, index))
    try:
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(descriptor, "wb") as file:
                file.write(_HEADER.pack(len(header)))
                file.write(header)
                for blob in blobs:
                    file.write(blob)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        for stale in path.parent.glob(f"elephant-{os.getuid()}-jieba-*.cache"):
            if stale != path:
                stale.unlink(missing_ok=True)
    except OSError:
        logging.getLogger(__name__).debug("could not write the jieba cache %s", path, exc_info=True)


_JIEBA = _Jieba()


def initialize() -> None:
    """Load jieba and the user dictionary now instead of on first use."""
    _JIEBA.get()


_FULL_WIDTH_RUN = re.compile(r"[０-９Ａ-Ｚａ-ｚ](?:[０-９Ａ-Ｚａ-ｚ＋＃]|[．－＿＇](?=[０-９Ａ-Ｚａ-ｚ]))*")


def fold_width(text: str) -> str:
    """Fold full-width latin letters and digits to ASCII: ＤｅｅｐＳｅｅｋ -> DeepSeek, ２０２３年 -> 2023年.

    Only runs that start with a letter or digit are folded (with the ＋ # . - _ ' inside
    names such as Ｃ＋＋ or Ｎｏｄｅ．ｊｓ), so Chinese full-width punctuation (，：！？（）)
    stays as written.
    """
    if not any("\uff01" <= ch <= "\uff5e" for ch in text):
        return text
    return _FULL_WIDTH_RUN.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)


def has_cjk(text: str) -> bool:
    """Return True when ``text`` contains at least one CJK ideograph."""
    return bool(_CJK_RE.search(text))


def detect_language(text: str) -> Literal["zh", "en"]:
    """Detect the language of a text: any CJK ideograph makes it Chinese.

    Args:
        text: Any text.

    Returns:
        ``"zh"`` or ``"en"``.
    """
    return "zh" if has_cjk(text) else "en"


def is_latin(word: str) -> bool:
    """Return True for a latin/digit token such as ``n8n``, ``Node.js`` or ``C++``."""
    return bool(_LATIN_RE.match(word))


def is_punct(word: str) -> bool:
    """Return True for a token made only of punctuation, symbols or spaces."""
    return bool(_PUNCT_RE.match(word)) and "+" not in word and "#" not in word


def join_words(words: list[str]) -> str:
    """Join tokens into one surface form.

    A space goes only between two latin tokens, so ``["n8n", "Code", "节点"]``
    becomes ``"n8n Code节点"`` however the source spaced it. That gives one stable
    spelling per name across "n8n的Code节点" and "n8n 的 Code 节点".

    Args:
        words: Tokens in order.

    Returns:
        The joined text.
    """
    out = ""
    previous = ""
    for word in words:
        word = word.strip()
        if not word:
            continue
        if out and is_latin(previous[-1:]) and is_latin(word[:1]):
            out += " "
        out += word
        previous = word
    return out


def cut(text: str) -> list[str]:
    """Segment text with jieba (whitespace tokens dropped)."""
    tokenizer, _ = _JIEBA.get()
    return [w for w in tokenizer.cut(text) if w.strip()]


def word_freq(word: str) -> int:
    """Return jieba's dictionary frequency of ``word`` (0 when it is no dictionary word)."""
    tokenizer, _ = _JIEBA.get()
    return int(tokenizer.FREQ.get(word) or 0)


def word_tag(word: str) -> str | None:
    """The part-of-speech tag of ``word`` when jieba reads it as one token (爱人 -> n), else None (爱踢 -> 爱 + 踢)."""
    tagged = pos_tag(word)
    return tagged[0][1] if len(tagged) == 1 else None


_NICKNAME_MAX_FREQ = 10
"""A kin-word nickname is no dictionary word: jieba knows 大哥 (3,062), 表姐, 空姐, 小哥 (13); 军哥 it does not."""


def is_kin_nickname(word: str) -> bool:
    """Whether a word is a nickname made of one character of a name and a kin word (军哥, 梅姐).

    The kin words are the lexicon's ``nickname_suffixes``; a numeral, size or name prefix
    before them (二哥, 大姐, 小哥), a relation word (表姐) or any word jieba's dictionary
    knows is no nickname.
    """
    return (
        len(word) == 2
        and word[1] in lexicon_words("zh", "nickname_suffixes")
        and has_cjk(word[0])
        and word[0] not in lexicon_words("zh", "name_prefixes")
        and word[0] not in "一二三四五六七八九十两大"
        and word not in _types.PERSON_ROLES
        and word_freq(word) < _NICKNAME_MAX_FREQ
    )


GIVEN_NAME_TAGS = frozenset({"n", "ns", "nr", "nz", "ng", "a", "j", "nrfg"})
"""Tags jieba gives the given name it cuts from an unknown full name (钱 + 秀英/nr, 邹 + 海涛/nr)."""


def is_split_full_name(name: str) -> bool:
    """Whether a three-character word is a surname and a two-character given name jieba cuts apart.

    jieba keeps names it knows whole (张伟/nr); one it does not know comes out as a surname
    and a word (邹 + 海涛, 钱 + 秀英). A word it knows (王府井) is one token, no name; two
    characters (高 + 桥) are too often a word to be read as a name.
    """
    if len(name) != 3 or name[0] not in _types.SURNAMES_ZH:
        return False
    tagged = pos_tag(name)
    if len(tagged) != 2 or tagged[0][0] != name[0] or tagged[0][1].startswith("v"):
        return False
    given, tag = tagged[1]
    return (
        tag in GIVEN_NAME_TAGS
        and has_cjk(given)
        and given not in _types.PERSON_ROLES
        and given not in _types.PERSON_TITLES_ZH
        and _types.gazetteer_type(given) is None
    )


def pos_tag(text: str) -> list[tuple[str, str]]:
    """Part-of-speech tag text with jieba.posseg (whitespace tokens dropped).

    Args:
        text: Chinese (or mixed) text.

    Returns:
        ``(word, flag)`` pairs with jieba's ICTCLAS-style flags (n, v, nr, ns, eng ...).
    """
    _, tagger = _JIEBA.get()
    tagged = [(pair.word, pair.flag) for pair in tagger.cut(text) if pair.word.strip()]
    tagged = [
        (word, numeral_or_noun(word, flag, tagged[at - 1][0] if at else "")) for at, (word, flag) in enumerate(tagged)
    ]
    return _merge_split_words(tagged)


_NUMERAL_CHARS = re.compile(r"[\d一二三四五六七八九十百千万亿两几零半多数第整俩仨０-９]")


def numeral_or_noun(word: str, flag: str, before: str) -> str:
    """A numeral tag on a word with no numeral in it, right after a count, is jieba's guess: 一包 | 大米 is a noun."""
    counted = bool(_NUMERAL_CHARS.search(before))
    numeral_free = len(word) > 1 and has_cjk(word) and not _NUMERAL_CHARS.search(word)
    return "n" if flag == "m" and counted and numeral_free else flag


def _merge_split_words(tagged: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Glue a lone surname-like character to the noun character after it: jieba's cut of a word it does not know.

    汶川 may come out as 汶/nr + 川/n: one character alone is no name, and the noun character is
    no word of its own here; the two are one unknown word (a place, a brand), tagged nz.
    """
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(tagged):
        word, flag = tagged[i]
        following = tagged[i + 1] if i + 1 < len(tagged) else None
        if (
            following is not None
            and flag == "nr"
            and following[1] == "n"
            and len(word) == 1
            and len(following[0]) == 1
            and has_cjk(word + following[0])
            and word not in lexicon_words("zh", "name_prefixes")
        ):
            out.append((word + following[0], "nz"))
            i += 2
            continue
        if (
            following is not None
            and len(word) == 2
            and word[0] == "我"
            and flag == "r"
            and following[0] in {"了", "过", "着", "的"}
            and word not in lexicon_words("zh", "first_person") | lexicon_words("zh", "group_first_person")
        ):
            out += [("我", "r"), (word[1], "v")]  # 我报了 / 我报的: what follows says 报 is a verb, 我 its subject
            i += 1
            continue
        out.append((word, flag))
        i += 1
    return out


def _merge_short_names(words: list[str]) -> list[str]:
    # jieba cuts 小李 / 老王 into two characters; glue them back so a search for
    # the name finds it.
    out: list[str] = []
    for word in words:
        if out and out[-1] in {"小", "老", "阿"} and len(word) == 1 and word in _types.SURNAMES_ZH:
            out[-1] += word
        else:
            out.append(word)
    return out


def tokens(text: str) -> list[str]:
    """Tokens for keyword search: jieba words plus latin words, lower-cased.

    Punctuation is dropped; latin words keep inner dots and pluses (node.js, c++).

    Args:
        text: Any text, Chinese, English or mixed.

    Returns:
        Lower-cased tokens in order of appearance (duplicates kept).
    """
    return list(_tokens(text))


@functools.lru_cache(maxsize=32768)
def _tokens(text: str) -> tuple[str, ...]:
    # Cached: the same fact and entity names are tokenised for every question that
    # reaches them (a hub's facts, hundreds per question), and segmentation depends only
    # on the text (the dictionary is fixed when jieba is built).
    out: list[str] = []
    if not has_cjk(text):
        return tuple(w.casefold().strip("'’") for w in _WORD_RE.findall(text))
    for word in _merge_short_names(cut(text)):
        if is_punct(word):
            continue
        if has_cjk(word):
            out.append(word.casefold())
        else:
            out.extend(w.casefold().strip("'’") for w in _WORD_RE.findall(word))
    return tuple(out)
