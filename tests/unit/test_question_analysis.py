"""Tests for the offline question analyser (``language.question``).

Besides the per-field tables, the last tests check the two halves agree: the
keywords of a question match the predicate the Reader stored for the fact that
answers it, and first-person questions name the same speaker the facts use.
"""

from __future__ import annotations

import pytest
from elephant_broker.language.extract import extract_quintuples
from elephant_broker.language.question import analyse_question


def test_seed_n8n_script_question() -> None:
    analysis = analyse_question("帮我在 n8n 写一段脚本，该用什么语言？", speaker="小李")
    assert analysis.language == "zh"
    assert {"n8n", "小李"} <= set(analysis.entities)
    assert analysis.answer_type == "Language"
    assert analysis.intent == "recommend"
    assert {"写", "脚本", "用"} <= set(analysis.keywords)


def test_seed_dune_question() -> None:
    analysis = analyse_question("Where was the author of Dune born?")
    assert analysis.language == "en"
    assert analysis.entities == ["Dune"]
    assert {"author", "born"} <= set(analysis.keywords)
    assert analysis.answer_type == "Place"
    assert analysis.intent == "lookup"


def test_seed_favourite_food_question() -> None:
    analysis = analyse_question("我最爱吃的是什么？", speaker="小王")
    assert analysis.entities == ["小王"]
    assert {"爱", "吃", "最爱", "爱吃", "最爱吃"} <= set(analysis.keywords)
    assert analysis.answer_type == "Food"
    assert "什么" not in analysis.keywords and "是" not in analysis.keywords


ANSWER_TYPES: list[tuple[str, str | None]] = [
    ("小李会什么编程语言？", "Language"),
    ("老王会哪些语言？", "Language"),
    ("What language should I use for n8n scripts?", "Language"),
    ("What programming language does n8n support?", "Language"),
    ("Which languages does Carol speak?", "Language"),
    ("张三的导师是谁？", "Person"),
    ("Who wrote Dune?", "Person"),
    ("Who is Alice's manager?", "Person"),
    ("我住在哪个城市？", "Place"),
    ("阿里巴巴总部在哪个城市？", "Place"),
    ("你知道王芳住在哪儿吗？", "Place"),
    ("北京是哪个国家的首都？", "Place"),
    ("Where does Alice live?", "Place"),
    ("小张什么时候加入字节跳动的？", "Time"),
    ("他是哪一年毕业的？", "Time"),
    ("When did Jane move to London?", "Time"),
    ("What year was Dune published?", "Time"),
    ("小王在哪家公司上班？", "Organization"),
    ("李四在哪里任教？", "Organization"),
    ("Which company does Carol work for?", "Organization"),
    ("Where does my sister work?", "Organization"),
    ("小李用什么工具？", "Tool"),
    ("推荐一个做自动化的工具", "Tool"),
    ("What does Bob use for note taking?", "Tool"),
    ("我喜欢吃什么？", "Food"),
    ("What does Alice eat?", "Food"),
    ("What is my favourite food?", "Food"),
    ("小王是不是程序员？", None),
    ("Is Tom married?", None),
    # The role noun decides, not the bare wh-word.
    ("王芳的雇主是谁？", "Organization"),
    ("王芳的老板是谁？", "Person"),
    ("Who is Bob's employer?", "Organization"),
    ("Who is Bob's manager?", "Person"),
    ("王芳平时做什么运动？", "Activity"),
    ("小李有什么爱好？", "Activity"),
    ("What sports does Carol play?", "Activity"),
    ("Which hobbies does Tom have?", "Activity"),
    ("小李开什么车？", "Thing"),
    ("老王会什么乐器？", "Thing"),
    ("What car does Bob drive?", "Thing"),
    ("Which instrument does Tom play?", "Thing"),
    ("张三哪一年结婚的？", "Time"),
    ("When did Carol get married?", "Time"),
    # "when" in a clause after another question word does not ask for a time.
    ("Who looks after Ravi's cat when he travels?", "Person"),
    ("And when did Carol get married?", "Time"),
]


@pytest.mark.parametrize(("question", "answer_type"), ANSWER_TYPES)
def test_answer_type(question: str, answer_type: str | None) -> None:
    assert analyse_question(question).answer_type == answer_type


INTENTS: list[tuple[str, str]] = [
    ("帮我在 n8n 写一段脚本，该用什么语言？", "recommend"),
    ("我应该学Rust还是Go？", "recommend"),
    ("推荐一个做自动化的工具", "recommend"),
    ("Should I use Python or Node.js for this?", "recommend"),
    ("Which framework would you recommend?", "recommend"),
    ("老王会哪些语言？", "list"),
    ("小王有哪些朋友?", "list"),
    ("小李有什么爱好？", "list"),
    ("What are my favourite foods?", "list"),
    ("List the tools I use.", "list"),
    ("What else is on my packing list?", "list"),
    ("Which dialects is Oskar studying?", "list"),  # a plural class noun asks for all of them
    ("What kinds of pets does Ann have?", "list"),
    ("What news did Maria share?", "lookup"),  # "news" is no plural
    ("Which bakery does Oskar work at?", "lookup"),
    ("小王是不是程序员？", "yes_no"),
    ("小李会Python吗？", "yes_no"),
    ("我是否用过Java？", "yes_no"),
    ("Does Bob work at Google?", "yes_no"),
    ("Is Tom married?", "yes_no"),
    ("Can Alice speak French?", "yes_no"),
    ("张三的导师是谁？", "lookup"),
    ("你知道王芳住在哪儿吗？", "lookup"),
    ("Where was the author of Dune born?", "lookup"),
    ("Who wrote Dune?", "lookup"),
]


@pytest.mark.parametrize(("question", "intent"), INTENTS)
def test_intent(question: str, intent: str) -> None:
    assert analyse_question(question).intent == intent


ENTITIES: list[tuple[str, str | None, set[str]]] = [
    ("张三的导师是谁？", None, {"张三"}),
    ("小张什么时候加入字节跳动的？", None, {"小张", "字节跳动"}),
    ("小李会什么编程语言？", None, {"小李"}),
    ("我应该学Rust还是Go？", "小王", {"Rust", "Go", "小王"}),
    ("阿里巴巴总部在哪个城市？", None, {"阿里巴巴"}),
    ("VS Code 和 Node.js 哪个好？", None, {"VS Code", "Node.js"}),
    ("Does Bob work at Google?", None, {"Bob", "Google"}),
    ("Who is Alice's manager?", None, {"Alice"}),
    ("When did Frank Herbert write Dune?", None, {"Frank Herbert", "Dune"}),
    ("Should I use Python or Node.js for this?", "Alice", {"Python", "Node.js", "Alice"}),
    ("What's VS Code used for?", None, {"VS Code"}),
]


@pytest.mark.parametrize(("question", "speaker", "entities"), ENTITIES)
def test_entities(question: str, speaker: str | None, entities: set[str]) -> None:
    assert set(analyse_question(question, speaker).entities) == entities


def test_question_words_are_not_entities_or_keywords() -> None:
    analysis = analyse_question("What is the capital of France?")
    assert analysis.entities == ["France"]
    assert analysis.keywords == ["capital"]
    analysis = analyse_question("我住在哪个城市？", "小王")
    assert analysis.entities == ["小王"]
    assert "哪个" not in analysis.keywords


def test_first_person_names_the_speaker_or_user() -> None:
    assert "小王" in analyse_question("我住在哪里？", "小王").entities
    assert "Alice" in analyse_question("Where do I live?", "Alice").entities
    assert "Alice" in analyse_question("What is my favourite food?", "Alice").entities
    assert "user" in analyse_question("Where do I live?").entities
    assert "user" in analyse_question("帮我查一下我的导师是谁").entities
    # No first person, no speaker.
    assert "Alice" not in analyse_question("Where does Bob live?", "Alice").entities


def test_english_keywords_carry_lemmas() -> None:
    keywords = analyse_question("Where does Bob live?").keywords
    assert "live" in keywords
    keywords = analyse_question("Who wrote Dune?").keywords
    assert {"wrote", "write"} <= set(keywords)
    # A hyphenated word is one keyword, not dropped as non-alphabetic.
    assert "check-up" in analyse_question("When is the cat's check-up?").keywords


def test_english_keywords_carry_the_written_forms_the_lemma_does_not_cover() -> None:
    # Stored predicates are written forms; "write" is no substring of "wrote".
    assert {"writes", "write", "wrote"} <= set(analyse_question("Who writes Dune?").keywords)
    assert {"study", "studies", "studied"} <= set(analyse_question("Where did Emma study?").keywords)
    assert analyse_question("Where does Bob live?").keywords == ["live"]


@pytest.mark.parametrize(
    ("fact", "question", "speaker"),
    [
        ("我最爱的水果是西红柿", "我最爱吃的是什么？", "小王"),
        ("小李精通 Python。", "小李精通什么语言？", None),
        ("李四在清华大学任教", "李四在哪里任教？", None),
        ("我在腾讯公司工作", "我在哪家公司工作？", "小王"),
        ("Frank Herbert wrote Dune.", "Who wrote Dune?", None),
        ("Frank Herbert was born in Tacoma.", "Where was Frank Herbert born?", None),
        ("Frank Herbert is the author of Dune.", "Where was the author of Dune born?", None),
        ("Bob lives in Paris.", "Where does Bob live?", None),
        ("I love eating tomatoes", "What do I love eating?", "Alice"),
        ("My favourite food is sushi", "What is my favourite food?", "Alice"),
        ("I work at Acme Corp.", "Where do I work?", "Alice"),
        ("Dune was written by Frank Herbert.", "Who writes Dune?", None),
        ("Emma studied at Oxford.", "Where did Emma study?", None),
        ("Maria teaches at Stanford.", "Where does Maria teach?", None),
        ("Bob is using Docker.", "What does Bob use?", None),
    ],
)
def test_question_matches_the_stored_fact(fact: str, question: str, speaker: str | None) -> None:
    """Some question entity is the fact's subject and some keyword appears in its predicate."""
    quintuple = extract_quintuples(fact, speaker)[0]
    analysis = analyse_question(question, speaker)
    assert quintuple.subject in analysis.entities or quintuple.object in analysis.entities
    predicate = quintuple.predicate.casefold()
    assert any(keyword.casefold() in predicate for keyword in analysis.keywords), (predicate, analysis.keywords)


@pytest.mark.parametrize(
    ("fact", "question", "speaker"),
    [
        ("我周末经常打网球。", "我周末做什么运动？", "小王"),
        ("我每天早上慢跑。", "我有什么运动习惯？", "小王"),
        ("I go hiking every Sunday.", "What exercise do I do?", "Alice"),
        ("我有一辆宝马。", "我开什么车？", "小王"),
        ("I own a Honda Civic.", "What car do I drive?", "Alice"),
        ("I can play the cello.", "What instrument can I play?", "Alice"),
        ("Bob works at Toyota.", "Who is Bob's employer?", None),
        ("我在比亚迪上班。", "我的雇主是谁？", "小王"),
    ],
)
def test_answer_type_matches_the_stored_object_type(fact: str, question: str, speaker: str | None) -> None:
    """The type the question asks for is the type the Reader gave the answer."""
    quintuple = extract_quintuples(fact, speaker)[0]
    assert quintuple.object_type == analyse_question(question, speaker).answer_type, quintuple


@pytest.mark.parametrize(
    "question",
    ["What is my job?", "What do I do for a living?", "What does Sarah do?", "What's her occupation?",
     "我的职业是什么？", "我是做什么的？", "小赵做什么工作？", "他是干什么的？"],
)  # fmt: skip
def test_job_questions_ask_for_works_as(question: str) -> None:
    keywords = analyse_question(question, "Hannah").keywords
    assert "works as" in keywords
    assert not {"live", "living"} & set(keywords)  # "for a living" is no question about homes


def test_other_questions_do_not_ask_for_a_job() -> None:
    assert "works as" not in analyse_question("What does Sarah use?").keywords
    assert "works as" not in analyse_question("我在哪里工作？", "小赵").keywords
