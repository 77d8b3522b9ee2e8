"""English extraction cases from a blind test of the offline Reader (``language.extract_en``).

Each case names the facts that matter by canonical predicate key (what conflict
detection and retrieval compare) and, where the sentence says when, the time
qualifier kept in ``valid_from``; junk facts the rules must not produce are listed
as absent. Changes of state ("no longer", "stopped using", "and now I ...") must
give the old value negated and the new one positive under the same key, which is
what lets the old fact be superseded.
"""

from __future__ import annotations

import pytest
from elephant_broker.language.extract import extract_quintuples
from elephant_broker.language.filters import is_non_factual
from elephant_broker.language.predicates import predicate_key

Keyed = tuple[str, str, str, bool]


def keyed(text: str, speaker: str | None = None) -> set[Keyed]:
    """The (subject, predicate key, object, negated) set extracted from ``text``."""
    return {(q.subject, predicate_key(q.predicate), q.object, q.negated) for q in extract_quintuples(text, speaker)}


def ends(text: str, speaker: str | None = None) -> set[tuple[str, str]]:
    """The (subject, object) pairs extracted from ``text``, whatever the relation."""
    return {(q.subject, q.object) for q in extract_quintuples(text, speaker)}


# --- changes of state: the old value negated, the new one positive ----------------------------

# (text, speaker, facts that must be there, (subject, object) pairs that must not)
CHANGE_CASES: list[tuple[str, str, set[Keyed], set[tuple[str, str]]]] = [
    (
        "Quinn no longer uses Slack, she now uses Discord.",
        "Ann",
        {("Quinn", "uses", "Slack", True), ("Quinn", "uses", "Discord", False)},
        {("Quinn no longer", "Slack")},
    ),
    (
        "I no longer use Slack; now I use Discord.",
        "Quinn",
        {("Quinn", "uses", "Slack", True), ("Quinn", "uses", "Discord", False)},
        set(),
    ),
    (
        "I stopped using Slack and now I use Discord.",
        "Quinn",
        {("Quinn", "uses", "Slack", True), ("Quinn", "uses", "Discord", False)},
        set(),
    ),
    ("Quinn quit using Jira last year.", "Ann", {("Quinn", "uses", "Jira", True)}, set()),
    ("I gave up Photoshop.", "Quinn", {("Quinn", "uses", "Photoshop", True)}, set()),
    ("I gave up using Excel in 2021.", "Quinn", {("Quinn", "uses", "Excel", True)}, set()),
    ("Mike stopped drinking coffee.", "Ann", {("Mike", "drink", "coffee", True)}, set()),
    ("I never stopped using Vim.", "Quinn", {("Quinn", "uses", "Vim", False)}, set()),
    (
        "Quinn switched from Slack to Discord.",
        "Ann",
        {("Quinn", "uses", "Discord", False)},
        set(),
    ),
    ("I moved from Boston to Denver.", "Quinn", {("Quinn", "lives_in", "Denver", False)}, set()),
    (
        "I left Deloitte and now I work at KPMG.",
        "Nora",
        {("Nora", "works_at", "Deloitte", True), ("Nora", "works_at", "KPMG", False)},
        set(),
    ),
    (
        "I quit my job at Deloitte and joined KPMG.",
        "Nora",
        {("Nora", "works_at", "Deloitte", True), ("Nora", "works_at", "KPMG", False)},
        set(),
    ),
    (
        "Tom sold his car and he now rides a bike.",
        "Ann",
        # Selling a thing is no longer having it: the sale is stored as "has" denied.
        {("Tom", "has_part", "Tom's car", True), ("Tom", "ride", "bike", False)},
        set(),
    ),
]


@pytest.mark.parametrize(("text", "speaker", "present", "absent"), CHANGE_CASES)
def test_changes_of_state(text: str, speaker: str, present: set[Keyed], absent: set[tuple[str, str]]) -> None:
    found = keyed(text, speaker)
    assert present <= found, found
    assert not absent & ends(text, speaker)


def test_stopped_using_keeps_a_clear_confidence() -> None:
    [fact] = [q for q in extract_quintuples("I stopped using Slack.", "Quinn") if q.object == "Slack"]
    assert (predicate_key(fact.predicate), fact.negated, fact.confidence) == ("uses", True, 0.9)


def test_quitting_a_job_is_no_longer_working_there() -> None:
    found = keyed("I quit my job at Deloitte and joined KPMG.", "Nora")
    # Not (Nora, quit at, Deloitte): the place belongs to the job, and the job is over.
    assert ("Nora", "quit_at", "Deloitte", False) not in found
    assert ("Nora", "quits_at", "Deloitte", False) not in found


def test_changes_of_tool_supersede_under_one_key() -> None:
    for text in (
        "Quinn no longer uses Slack, she now uses Discord.",
        "I stopped using Slack and now I use Discord.",
    ):
        facts = [q for q in extract_quintuples(text, "Quinn") if q.object in {"Slack", "Discord"}]
        assert {predicate_key(q.predicate) for q in facts} == {"uses"}
        assert {q.subject_type for q in facts} == {"Person"}
        assert {(q.object, q.negated) for q in facts} == {("Slack", True), ("Discord", False)}


def test_she_is_the_subject_before_only_without_a_person_in_between() -> None:
    assert keyed("Quinn no longer uses Slack, she now uses Discord.", "Ann") == {
        ("Quinn", "uses", "Slack", True),
        ("Quinn", "uses", "Discord", False),
    }
    # Tom, a known person, stands between: Acme is not "he".
    assert keyed("Acme hired Tom, he works in sales.", "Ann") == {("Acme", "hire", "Tom", False)}


def test_a_new_job_supersedes_the_old_one() -> None:
    facts = extract_quintuples("Lisa quit her job at Google last year and she now works at Meta.", "Ann")
    works = {(q.object, q.negated, q.valid_from) for q in facts if predicate_key(q.predicate) == "works_at"}
    assert works == {("Google", True, "last year"), ("Meta", False, None)}


def test_a_new_clause_after_and_is_read() -> None:
    # "and I" inside a subject is still a coordinated subject, not a new clause.
    assert keyed("My brother and I both love hiking.", "Ann") == {
        ("Ann's brother", "likes", "hiking", False),
        ("Ann", "brother", "Ann's brother", False),
        ("Ann", "likes", "hiking", False),
    }
    assert ("Ann", "lives_in", "Oslo", False) in keyed("I met Tom in Paris and then I moved to Oslo.", "Ann")


# --- relational nouns after "is": "an expert in", "a big fan of" --------------------------------

NOUN_RELATION_CASES: list[tuple[str, set[Keyed]]] = [
    ("Leo is an expert in Rust.", {("Leo", "skilled_in", "Rust", False)}),
    ("Mia is a big fan of jazz.", {("Mia", "likes", "jazz", False)}),
    ("Mia is a huge fan of the Beatles.", {("Mia", "likes", "Beatles", False)}),
    ("I am not an expert in Kubernetes.", {("Ann", "skilled_in", "Kubernetes", True)}),
    ("I'm good at chess.", {("Ann", "skilled_in", "chess", False)}),
    ("Sam loves playing chess.", {("Sam", "likes", "chess", False)}),
    ("Tom is a member of the chess club.", {("Tom", "member_of", "chess club", False)}),
    # Not relational nouns: the class and the place stay apart.
    ("Paris is a city in France.", {("Paris", "is_a", "city", False)}),
]


@pytest.mark.parametrize(("text", "expected"), NOUN_RELATION_CASES)
def test_relational_nouns(text: str, expected: set[Keyed]) -> None:
    assert keyed(text, "Ann") == expected


def test_relational_noun_predicates_read_as_written() -> None:
    [fact] = extract_quintuples("Leo is an expert in Rust.", "Ann")
    assert (fact.predicate, fact.object_type, fact.confidence) == ("expert in", "Language", 0.9)
    [fact] = extract_quintuples("Mia is a big fan of jazz.", "Ann")
    assert fact.predicate == "a big fan of"


# --- instruments: building something with a tool is using the tool -----------------------------

INSTRUMENT_CASES: list[tuple[str, set[Keyed]]] = [
    (
        "Leo is building a plugin system with Wasmtime.",
        {("Leo", "build", "plugin system", False), ("Leo", "uses", "Wasmtime", False)},
    ),
    (
        "I built the dashboard with React.",
        {("Ann", "build", "dashboard", False), ("Ann", "uses", "React", False)},
    ),
    ("I wrote the report with Excel.", {("Ann", "wrote", "report", False), ("Ann", "uses", "Excel", False)}),
    # A person after "with" is company, not an instrument; so is an unknown name after
    # a verb done with people as often as with tools.
    ("I built a treehouse with Tom.", {("Ann", "build", "treehouse", False)}),
    ("I wrote the report with Quinn.", {("Ann", "wrote", "report", False)}),
]


@pytest.mark.parametrize(("text", "expected"), INSTRUMENT_CASES)
def test_instruments(text: str, expected: set[Keyed]) -> None:
    found = keyed(text, "Ann")
    assert expected <= found, found
    assert not any(key == "uses" and obj in {"Tom", "Quinn"} for _, key, obj, _ in found)


def test_instrument_is_typed_as_a_tool() -> None:
    [fact] = [q for q in extract_quintuples("Leo is building a plugin system with Wasmtime.") if q.object == "Wasmtime"]
    assert (fact.subject, fact.predicate, fact.object_type, fact.negated) == ("Leo", "uses", "Tool", False)


# --- events with someone on a day ----------------------------------------------------------------


def test_a_meeting_with_someone_is_not_the_person() -> None:
    facts = extract_quintuples("My meeting with Tom is on Friday.", "Ann")
    assert ("Tom", "Friday") not in {(q.subject, q.object) for q in facts}
    assert [(q.subject, q.predicate, q.object, q.valid_from) for q in facts] == [
        ("Ann", "meeting with", "Tom", "on Friday")
    ]


def test_an_appositive_name_still_links() -> None:
    assert keyed("My colleague Tom lives in Chicago.", "Ann") == {
        ("Tom", "lives_in", "Chicago", False),
        ("Ann", "colleague", "Tom", False),
    }


# --- how often: recurring times are the schedule, dates stay the start ------------------------

FREQUENCY_CASES: list[tuple[str, tuple[str, str, str], str | None, str | None]] = [
    ("I go swimming every Saturday morning.", ("Mark", "go", "swimming"), None, "every Saturday morning"),
    ("I swim on Fridays.", ("Mark", "do", "swimming"), None, "on Fridays"),
    ("I go running every day.", ("Mark", "go", "running"), None, "every day"),
    ("I play tennis twice a week.", ("Mark", "play", "tennis"), None, "twice a week"),
    ("I go to the gym at 7 am.", ("Mark", "go_to", "gym"), None, "at 7 am"),
    ("Mark walks his dog every other day.", ("Mark", "walk", "Mark's dog"), None, "every other day"),
    ("I moved to Berlin in 2020.", ("Mark", "lives_in", "Berlin"), "in 2020", None),
    # A bare plural day part after the verb says when, and the place after it is where.
    ("Mark works evenings at the depot.", ("Mark", "works_at", "depot"), None, "evenings"),
    ("I work weekends at Tesco.", ("Mark", "works_at", "Tesco"), None, "weekends"),
]


@pytest.mark.parametrize(("text", "fact", "valid_from", "schedule"), FREQUENCY_CASES)
def test_frequency_is_the_schedule_and_a_date_the_start(
    text: str, fact: tuple[str, str, str], valid_from: str | None, schedule: str | None
) -> None:
    found = {
        (q.subject, predicate_key(q.predicate), q.object): (q.valid_from, q.schedule)
        for q in extract_quintuples(text, "Mark")
    }
    assert fact in found, found
    assert found[fact] == (valid_from, schedule)


def test_a_leading_frequency_is_the_schedule() -> None:
    [fact] = extract_quintuples("Every morning I run.", "Mark")
    assert (fact.subject, fact.predicate, fact.object, fact.schedule) == ("Mark", "does", "running", "Every morning")


def test_a_clock_time_is_not_an_object() -> None:
    assert not any(q.object == "7 am" for q in extract_quintuples("I get up at 7 am.", "Mark"))


# --- metaphors state no fact ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "My inbox is a black hole.",
        "My commute is a nightmare.",
        "The launch was a complete nightmare.",
        "The office is a zoo on Mondays.",
        "Our codebase is a total dumpster fire.",
        "This project is a gold mine.",
        "That legacy service is a ticking time bomb.",
        "The kitchen is a war zone.",
        "The last year was a roller coaster.",
        "My week was a rollercoaster.",
        "The exam was a piece of cake.",
        "The interview was a breeze.",
        "His room is a pigsty.",
        "The town is a ghost town in winter.",
        "The new campus is a maze.",
        "My flat is a sauna in summer.",
        "The budget is a bottomless pit.",
        "The negotiation was a minefield.",
        "The ER is a madhouse.",
        "The merger was a train wreck.",
    ],
)
def test_metaphors_are_no_facts(sentence: str) -> None:
    assert is_non_factual(sentence) == "metaphor"
    assert extract_quintuples(sentence, "Ann") == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("My sister is a nurse.", {("Ann's sister", "is_a", "nurse", False), ("Ann", "sister", "Ann's sister", False)}),
        ("Paris is a city.", {("Paris", "is_a", "city", False)}),
        ("Biscuit is a dog.", {("Biscuit", "is_a", "dog", False)}),
        ("I had a nightmare about spiders.", {("Ann", "has_part", "nightmare", False)}),
        ("We visited the zoo.", {("Ann", "visit", "zoo", False)}),
    ],
)
def test_literal_statements_still_extract(sentence: str, expected: set[Keyed]) -> None:
    assert is_non_factual(sentence) is None
    assert keyed(sentence, "Ann") == expected


# --- second blind test: schedules, manner adverbs, employers, moves, names with & ------------


def facts(text: str, speaker: str | None = None) -> list[tuple[str, str, str, bool, str | None, str | None]]:
    """(subject, predicate key, object, negated, valid_from, schedule) for every extracted fact."""
    return [
        (q.subject, predicate_key(q.predicate), q.object, q.negated, q.valid_from, q.schedule)
        for q in extract_quintuples(text, speaker)
    ]


@pytest.mark.parametrize(
    ("sentence", "obj", "schedule"),
    [
        ("I have yoga class every Tuesday evening.", "yoga class", "every Tuesday evening"),
        ("I have yoga class every weekend.", "yoga class", "every weekend"),
        ("I have yoga class on Tuesday evenings.", "yoga class", "on Tuesday evenings"),
        ("I have yoga class every Monday and Thursday.", "yoga class", "every Monday and Thursday"),
        ("I go swimming on Mondays and Thursdays.", "swimming", "on Mondays and Thursdays"),
        ("I have piano lessons each Friday afternoon.", "piano lessons", "each Friday afternoon"),
    ],
)
def test_recurring_days_are_the_schedule(sentence: str, obj: str, schedule: str) -> None:
    found = [f for f in facts(sentence, "Grace") if f[2] == obj]
    assert found, facts(sentence, "Grace")
    assert all(f[0] == "Grace" and f[4] is None and f[5] == schedule for f in found)


@pytest.mark.parametrize(
    ("sentence", "key", "obj"),
    [
        ("Zoe knows Lua well.", "knows", "Lua"),
        ("Zoe knows Lua very well.", "knows", "Lua"),
        ("Zoe speaks Spanish pretty well.", "speaks", "Spanish"),
        ("Zoe speaks French a little.", "speaks", "French"),
        ("Zoe speaks German a bit.", "speaks", "German"),
        ("Zoe speaks Italian fluently.", "speaks", "Italian"),
        ("Zoe plays chess badly.", "plays", "chess"),
        ("Zoe plays the guitar really well.", "plays", "guitar"),
    ],
)
def test_manner_adverbs_are_not_part_of_the_object(sentence: str, key: str, obj: str) -> None:
    got = facts(sentence, "Ann")
    assert [(s, o) for s, _, o, *_ in got] == [("Zoe", obj)], got
    assert predicate_key(extract_quintuples(sentence, "Ann")[0].predicate) in {key, predicate_key(key)}


@pytest.mark.parametrize(
    "sentence",
    [
        "Ethan Cole is employed by Initech.",
        "Ethan Cole is employed at Initech.",
        "Ethan Cole works for Initech.",
        "Ethan Cole works at Initech.",
    ],
)
def test_employer_is_an_organization(sentence: str) -> None:
    got = extract_quintuples(sentence, "Ann")
    assert [(q.subject, predicate_key(q.predicate), q.object) for q in got] == [("Ethan Cole", "works_at", "Initech")]
    assert (got[0].subject_type, got[0].object_type) == ("Person", "Organization")


@pytest.mark.parametrize(
    ("sentence", "old", "new"),
    [
        ("I moved out of Chicago to Seattle.", "Chicago", "Seattle"),
        ("I moved away from Boston to Denver.", "Boston", "Denver"),
        ("I left Boston for Denver.", "Boston", "Denver"),
        ("I moved from Chicago to Seattle.", "Chicago", "Seattle"),
    ],
)
def test_moving_out_retires_the_old_home(sentence: str, old: str, new: str) -> None:
    got = keyed(sentence, "Mia")
    assert ("Mia", "lives_in", old, True) in got
    assert ("Mia", "lives_in", new, False) in got
    assert not any(o == old and not neg for _, _, o, neg in got), got


def test_moving_away_alone_retires_the_old_home() -> None:
    assert keyed("I moved away from Boston.", "Mia") == {("Mia", "lives_in", "Boston", True)}
    assert keyed("I moved out of Chicago last year.", "Mia") == {("Mia", "lives_in", "Chicago", True)}


@pytest.mark.parametrize(
    ("sentence", "tool"),
    [
        ("I use Vim for coding.", "Vim"),
        ("I use Python for data analysis.", "Python"),
        ("I use Figma for designing.", "Figma"),
    ],
)
def test_purpose_phrase_is_no_relation(sentence: str, tool: str) -> None:
    assert keyed(sentence, "Ann") == {("Ann", "uses", tool, False)}


@pytest.mark.parametrize(
    ("sentence", "org"),
    [
        ("Mark Hughes works at Tiffany & Co.", "Tiffany & Co"),
        ("Mark Hughes works at Smith & Sons.", "Smith & Sons"),
        ("Mark Hughes works at Baker & Partners.", "Baker & Partners"),
        ("Mark Hughes works at AT&T.", "AT&T"),
        ("Mark Hughes works at Johnson & Johnson.", "Johnson & Johnson"),
    ],
)
def test_ampersand_names_stay_whole(sentence: str, org: str) -> None:
    got = extract_quintuples(sentence, "Ann")
    assert [(q.subject, predicate_key(q.predicate), q.object) for q in got] == [("Mark Hughes", "works_at", org)]
    assert got[0].object_type == "Organization"


def test_ampersand_and_and_lists_still_split() -> None:
    assert keyed("I like cats & dogs.", "Ann") == {("Ann", "likes", "cats", False), ("Ann", "likes", "dogs", False)}
    assert keyed("I know Python and Java.", "Ann") == {
        ("Ann", "knows", "Python", False),
        ("Ann", "knows", "Java", False),
    }


def test_adores_is_likes() -> None:
    got = extract_quintuples("Olivia adores sushi.", "Ann")
    assert [(q.subject, q.predicate, q.object, q.negated) for q in got] == [("Olivia", "adores", "sushi", False)]
    assert predicate_key(got[0].predicate) == "likes"
    assert (got[0].subject_type, got[0].object_type) == ("Person", "Food")


@pytest.mark.parametrize(
    ("sentence", "school"),
    [
        ("I graduated from the University of Michigan.", "University of Michigan"),
        ("I went to college at Stanford.", "Stanford"),
        ("I went to school at Oxford.", "Oxford"),
    ],
)
def test_schools(sentence: str, school: str) -> None:
    got = keyed(sentence, "Ann")
    assert ("Ann", "studied_at", school, False) in got or ("Ann", "graduated_from", school, False) in got, got
    assert not any(key == "go_at" or key.startswith("went") for _, key, _, _ in got), got


@pytest.mark.parametrize(
    ("text", "present"),
    [
        (
            "I left Deloitte and joined KPMG.",
            {("Nora", "works_at", "Deloitte", True), ("Nora", "works_at", "KPMG", False)},
        ),
        ("I joined Google in 2020.", {("Nora", "works_at", "Google", False)}),
        ("I joined a gym.", {("Nora", "join", "gym", False)}),  # no employer
        ("I left Paris yesterday.", {("Nora", "leave", "Paris", False)}),  # a trip, not a move
    ],
)
def test_leaving_and_joining_a_company_change_the_employer(text: str, present: set[Keyed]) -> None:
    assert present <= keyed(text, "Nora")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A capital "A" before a title-cased phrase is the title's own first word ...
        ("A Winter Orchard was published by Gull Press.", {("Gull Press", "A Winter Orchard")}),
        ("A Tower of Salt Glass is from Norway.", {("A Tower of Salt Glass", "Norway")}),
        # ... not before a common noun, nor in "a friend of mine".
        ("A friend of mine lives in Oslo.", {("user's friend", "Oslo"), ("user", "user's friend")}),
    ],
)
def test_a_title_keeps_its_article(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A subject relative clause after a name says something of that name ...
        ("Maria works at Globex, which is based in Boston.", {("Maria", "Globex"), ("Globex", "Boston")}),
        ("Anna, who is my sister, lives in Rome.", {("Anna", "Rome"), ("user", "Anna")}),
        # ... and what follows its comma is still its own, not the main clause's object.
        (
            "The owner of Bell Arena is Nova Events which is located in Cork, Ireland.",
            {("Bell Arena", "Nova Events"), ("Nova Events", "Cork"), ("Cork", "Ireland")},
        ),
        # An object relative ("which Herbert wrote") and one after a common noun say nothing kept.
        ("Dune, which Herbert wrote in 1965, is long.", set()),
        ("I visited the museum which was built in 1900.", {("user", "museum")}),
    ],
)
def test_relative_clauses(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "where" after a name: a role of that name ...
        (
            "Nova Books is based in Chile where Ana Ruiz is the leader.",
            {("Nova Books", "Chile"), ("Chile", "Ana Ruiz")},
        ),
        (
            "Quito is the capital of Ecuador where the currency is the US dollar.",
            {("Ecuador", "Quito"), ("Ecuador", "US dollar")},
        ),
        # ... or the place of what the clause says.
        (
            "I moved to Lyon, where my brother lives.",
            {("user", "Lyon"), ("user's brother", "Lyon"), ("user", "user's brother")},
        ),
        ("We stayed in Porto, where the food is great.", {("user", "Porto")}),
    ],
)
def test_where_clauses(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A participle phrase said of a name, fronted or set off by commas, is read of that name.
        (
            "Born in Tarbury, Ruth Okafor wrote three novels.",
            {("Ruth Okafor", "Tarbury"), ("Ruth Okafor", "three novels")},
        ),
        ("Anna Berg, married to Tom Hale, lives in Rome.", {("Anna Berg", "Rome"), ("Anna Berg", "Tom Hale")}),
        # Not an adjective before "I".
        ("Tired, I went home.", {("user", "home")}),
    ],
)
def test_participle_phrases(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An apposition between commas that names a relative makes the name the subject ...
        ("My uncle, Piotr Nowak, lives in Gdansk.", {("Piotr Nowak", "Gdansk"), ("user", "Piotr Nowak")}),
        # ... one that describes a name is read as what the name is, not as the main verb's subject.
        ("Rex, a young collie, sleeps in the barn.", {("Rex", "young collie"), ("Rex", "barn")}),
        ("I grew up in Lenby, a small town near Hull.", {("user", "Lenby"), ("Lenby", "small town")}),
    ],
)
def test_appositions(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # After "is a ...", a participle phrase describes the subject, and the object ends before it.
        ("Globex is a company based in Boston.", {("Globex", "company"), ("Globex", "Boston")}),
        # Not inside a relative clause, which says something of the object.
        (
            "Ruth Hale was the architect of Corran House which was completed in 1862.",
            {("Corran House", "Ruth Hale"), ("Corran House", "1862")},
        ),
    ],
)
def test_participle_after_a_copula(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "whose <noun> is Y": the noun of the name before it is Y.
        ("Tarsk, whose mayor is Ilse Brandt, lies in Norland.", {("Tarsk", "Ilse Brandt"), ("Tarsk", "Norland")}),
        # A middle initial keeps its dot; a number keeps its thousands comma.
        ("Korvo was created by Dana J. Wells.", {("Dana J. Wells", "Korvo")}),
        # "it" and "its" refer to the named thing the sentence before was about ...
        (
            "Veltrix is based in Tarsk. It has a staff of 1,200 people. Its founder is Ilse Brandt.",
            {("Veltrix", "Tarsk"), ("Veltrix", "1,200 people"), ("Veltrix", "Ilse Brandt")},
        ),
        # ... and only a name or a count is kept of "it": "it is great" may be said of anything.
        ("I use Notion. It is great.", {("user", "Notion")}),
        ("Yeah, I painted that lake. It's special to me.", {("user", "lake")}),
        # A common noun after "the", capitalised or not, may name what was said before by it.
        (
            "The Corran Institute of Technology is in Tarsk. The Institute was founded in 2000.",
            {("Corran Institute of Technology", "Tarsk"), ("Corran Institute of Technology", "2000")},
        ),
        # "the memorial" is the name ending in that noun, said before.
        (
            "The Orla Memorial is in Tarsk. The memorial was designed by Ida Marsh.",
            {("Orla Memorial", "Tarsk"), ("Ida Marsh", "Orla Memorial")},
        ),
    ],
)
def test_what_a_text_refers_back_to(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Places written "A, B, C": the subject is in A, A in B, B in C.
        (
            "Corran House is located in Dunmore, Ashby County, Vermont.",
            {("Corran House", "Dunmore"), ("Dunmore", "Ashby County"), ("Ashby County", "Vermont")},
        ),
        # A list of people is no chain.
        ("I met Tom, Ann, Bob.", {("user", "Tom"), ("user", "Ann"), ("user", "Bob")}),
        # "in Y" right after a place places the place, not the subject ...
        (
            "Tarsk Airport serves the city of Dunmore in Norland.",
            {("Tarsk Airport", "Dunmore"), ("Dunmore", "Norland")},
        ),
        # ... but not after a person.
        ("I met Tom in Paris.", {("user", "Tom"), ("user", "Paris")}),
        # "is to the west" is a direction, not "has been to".
        ("Ashby County is to the west.", set()),
    ],
)
def test_places_within_places(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "has a <attribute> of <number>" states a measure of the subject, with its unit.
        ("Tarsk Airport has a runway length of 3,800 metres.", {("Tarsk Airport", "runway length", "3,800 metres")}),
        (
            "Veltrix has an elevation of 210 metres above sea level and a staff of 40.",
            {("Veltrix", "elevation", "210 metres"), ("Veltrix", "staff", "40")},
        ),
        ("Aenir has the ISBN number 0-439-17684-0.", {("Aenir", "ISBN number", "0-439-17684-0")}),
        # Not what is had: a quantity of things, or a named thing with a number in its name.
        ("Anna has a lot of friends.", {("Anna", "has", "friends")}),
        ("Anna has a Tesla Model 3.", {("Anna", "has", "Tesla Model 3")}),
        # "has Y as a <role>": Y is the subject's role.
        ("Ajoblanco has bread as an ingredient.", {("Ajoblanco", "ingredient", "bread")}),
        ("Orla Foods has Ida Marsh as its chief executive.", {("Orla Foods", "chief executive", "Ida Marsh")}),
        # A plural possessive inside a name is part of it.
        ("The Tarsk Miners' Memorial is in Norland.", {("Tarsk Miners' Memorial", "be in", "Norland")}),
        # A measure of something else is no count of the subject's.
        ("Barny cakes have 18 grams of sugar.", set()),
        # A count in digits of a plural noun; what follows "and" is had too.
        (
            "Veltrix has 16,000 employees and a head office.",
            {("Veltrix", "number of employees", "16,000"), ("Veltrix", "has", "head office")},
        ),
        # A dated passive of how a thing came to be.
        ("Veltrix was founded in 1998.", {("Veltrix", "founded in", "1998")}),
    ],
)
def test_what_a_thing_has(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert {(q.subject, q.predicate, q.object) for q in extract_quintuples(text)} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A name in another language keeps its lower-case words; a known word before them does not make one.
        ("Bandeja paisa comes from Colombia.", {("Bandeja paisa", "Colombia")}),
        ("Chocolate cake comes from Vienna.", set()),
        # A kind written before or after a name is not part of it.
        ("Massimo Drago played for the club Potenza Calcio.", {("Massimo Drago", "Potenza Calcio")}),
        ("The Westmoor club plays in the Crestline league.", {("Westmoor", "Crestline")}),
        # A verbless phrase fronted before the subject describes it; the clause after the comma is read.
        ("From Spain, Ajoblanco has bread as an ingredient.", {("Ajoblanco", "bread")}),
        ("However, Tom lives in Paris.", {("Tom", "Paris")}),
        ("Part of Andean cuisine, Bandeja paisa comes from Antioquia.", {("Bandeja paisa", "Antioquia")}),
        # A description before a name that opens the sentence is not part of it.
        ("Retired Norlish fighter pilot Ida Marsh was born in Tarsk.", {("Ida Marsh", "Tarsk")}),
        # A subject placed "in A, B": the name, and where it is.
        (
            "Corran Institute of Technology in Dunmore, Norland was established in 2000.",
            {
                ("Corran Institute of Technology", "2000"),
                ("Corran Institute of Technology", "Dunmore"),
                ("Dunmore", "Norland"),
            },
        ),
    ],
)
def test_names_and_what_surrounds_them(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A birth date written with its year after a comma, then the place.
        (
            "Ida Marsh was born on March 15, 1932 in Dunmore, Vermont.",
            {("Ida Marsh", "March 15, 1932"), ("Ida Marsh", "Dunmore"), ("Dunmore", "Vermont")},
        ),
        ("Ida Marsh was born on Nov 18, 1923 in Tarsk.", {("Ida Marsh", "Nov 18, 1923"), ("Ida Marsh", "Tarsk")}),
        # A participle aside in brackets is read as one between commas; the day may come first.
        (
            "Ida Marsh (born on the 17th of October 1933 in Tarsk) studied at Corran College.",
            {("Ida Marsh", "the 17th of October 1933"), ("Ida Marsh", "Tarsk"), ("Ida Marsh", "Corran College")},
        ),
        (
            "Ida Marsh, born July 23 1927 in Dunmore, has died.",
            {("Ida Marsh", "July 23 1927"), ("Ida Marsh", "Dunmore")},
        ),
        # An abbreviated month is a date only with its day: Jan is a name too.
        ("Jan works at Veltrix.", {("Jan", "Veltrix")}),
    ],
)
def test_birth_dates_and_places(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text) == expected


@pytest.mark.parametrize(
    ("text", "speaker", "expected"),
    [
        # ", and" before a noun phrase with its own verb starts a clause of its own.
        (
            "I'm allergic to peanuts, and my husband Idris is vegetarian.",
            "Mara",
            {("Mara", "peanuts"), ("Mara", "Idris"), ("Idris", "vegetarian")},
        ),
        # "our dog Biscuit" is the speaker's dog called Biscuit, as "my dog Biscuit".
        ("Our dog Pepper hates the vacuum cleaner.", "Mara", {("Pepper", "vacuum cleaner"), ("Mara", "Pepper")}),
        # A passive with its date before the agent; an irregular participle opening the sentence.
        ("Harbor Lights was written in 1954 by Ida Marsh.", "Mara", {("Ida Marsh", "Harbor Lights")}),
        (
            "Written in 1954 by Ida Marsh, Harbor Lights was adapted into a film directed by Tom Reed.",
            "Mara",
            {("Ida Marsh", "Harbor Lights"), ("Harbor Lights", "film")},
        ),
        # Not a participle phrase: "Given the rain" says why.
        ("Given the rain, Tom Reed drove to Leeds.", "Mara", {("Tom Reed", "Leeds")}),
    ],
)
def test_clauses_said_beside_the_main_one(text: str, speaker: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text, speaker) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "is a <occupation> at/for <name>": also works there; "in <place>": works in it.
        (
            "Clara Voss is a pediatric nurse at St. Brendan's Hospital.",
            {("Clara Voss", "is", "pediatric nurse"), ("Clara Voss", "works at", "St. Brendan's Hospital")},
        ),
        (
            "Hana Sato is a veterinarian in Tarsk.",
            {("Hana Sato", "is", "veterinarian"), ("Hana Sato", "works in", "Tarsk")},
        ),
        # "the" before the occupation as well: the one nurse there is still employed there.
        (
            "Odile Brun is the night pharmacist at Harbor Clinic.",
            {("Odile Brun", "is", "night pharmacist"), ("Odile Brun", "works at", "Harbor Clinic")},
        ),
        # Not after a thing that is no occupation.
        ("Tarsk is a city in Norland.", {("Tarsk", "is", "city")}),
        ("Veltrix is a software company in Tarsk.", {("Veltrix", "is", "software company")}),
    ],
)
def test_where_someone_works(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert {(q.subject, q.predicate, q.object) for q in extract_quintuples(text)} == expected


def test_a_chat_line_without_a_subject_is_the_speakers_doing() -> None:
    assert ("Ryan", "went to", "gym") in {
        (q.subject, q.predicate, q.object) for q in extract_quintuples("Went to the gym today", "Ryan")
    }
    found = {
        (q.subject, q.predicate, q.object) for q in extract_quintuples("just bought a 2015 Toyota Corolla", "Ryan")
    }
    assert found == {("Ryan", "bought", "2015 Toyota Corolla")}  # a year before a name is the model's
    # Not a described subject, a state said in passing, or what "it" did to the speaker.
    assert not ends("Born in Leeds, she moved to London", "Ryan") & {("Ryan", "London")}
    assert ends("Been a long month at the office.", "Ryan") == set()
    assert ends("Really made me wonder about the whole plan.", "Ryan") == set()
    # After a name, lower-case items describe it rather than continue a list.
    assert ends("just bought a Corolla, blue, 90k km", "Ryan") == {("Ryan", "Corolla")}


def test_a_nouns_s_before_an_adverb_or_a_participle_is_the_verb() -> None:
    found = keyed("my cousin's really into fencing", "Alex")
    assert ("Alex's cousin", "be_into", "fencing", False) in found
    assert ("Alex's aunt", "teach", "Welsh", False) in keyed("my aunt's been teaching me a bit of Welsh", "Alex")
    # Before a noun it is whose: Ada's party is a thing of Ada's.
    assert ("Ada", "Ada's wedding party") in ends("Ada's wedding party is in Porto", "Alex")


def test_an_aside_between_dashes_is_said_of_the_name_before_it() -> None:
    """The sentence goes on after the aside: Rupert lives in Exeter (not the speaker), and is called Ru."""
    found = ends("My neighbour Rupert — we all call him Ru — lives in Exeter.", "Nadia")
    assert {("Rupert", "Exeter"), ("Rupert", "Ru"), ("Nadia", "Rupert")} <= found
    assert ("Nadia", "Exeter") not in found
    # A lone dash still ends a lead-in.
    assert ("Nadia", "Oslo") in ends("Quick update — I moved to Oslo.", "Nadia")


def test_what_everyone_calls_someone_is_their_name() -> None:
    found = keyed("My cousin Harriet is a pilot. Everyone calls her Hattie.", "Nadia")
    assert ("Harriet", "call", "Hattie", False) in found
    assert not any(subject.casefold() in {"everyone", "nadia"} and obj == "Hattie" for subject, _, obj, _ in found)


def test_a_greeted_name_is_no_one_the_turn_speaks_of() -> None:
    """ "Hey Anneliese!" addresses Anneliese: "her" after it is not Anneliese."""
    found = ends("Hey Anneliese! I adopted a kitten last week! Her name is Miso.", "Nadia")
    assert not any("Anneliese" in subject for subject, _ in found)


def test_a_name_contraction_is_the_verb() -> None:
    assert ("Nadia", "Ines") in ends("My cousin lives in Porto. Her name's Ines btw.", "Nadia")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "where" with a subject of its own: what it states happened in the place.
        (
            "Odile Brun grew up in Tarsk, where Ida Marsh died on 4 May 1987.",
            {("Odile Brun", "Tarsk"), ("Ida Marsh", "4 May 1987"), ("Ida Marsh", "Tarsk")},
        ),
        # Two clauses joined by "and"; a role said with "a" or "one of the" is the place's.
        (
            "Kell Pie comes from Norland, where Ida Marsh is a leader and the Velans are one of the ethnic groups.",
            {("Kell Pie", "Norland"), ("Norland", "Ida Marsh"), ("Norland", "Velans")},
        ),
        # An occupation there is a workplace.
        ("Rhys lives in Tarsk, where Ana is a teacher.", {("Rhys", "Tarsk"), ("Ana", "teacher"), ("Ana", "Tarsk")}),
        # Nothing about the place itself: no fact.
        ("Rhys lives in Tarsk, where there are two parks.", {("Rhys", "Tarsk")}),
    ],
)
def test_what_happens_where(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text, "Mara") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "the <role> in/for <name>" is the name's, as "the <role> of <name>".
        ("Tarsk is the largest city in Norland.", {("Norland", "largest city", "Tarsk")}),
        ("Saffron is an ingredient in Kell Pie.", {("Kell Pie", "ingredient", "Saffron")}),
        (
            "The Norland Guard is the operating organisation for Orla Airfield.",
            {("Orla Airfield", "operating organisation", "Norland Guard")},
        ),
        # Two roles sharing one "of"; a subject that is itself "the X of Y" does not make them its values.
        (
            "Ida Marsh is the founder and CEO of Veltrix.",
            {("Veltrix", "founder", "Ida Marsh"), ("Veltrix", "CEO", "Ida Marsh")},
        ),
        # Not a purpose after "a", nor a kind of place.
        ("This is a gift for Tom.", set()),
        ("Tarsk is a city in Norland.", {("Tarsk", "is", "city")}),
        ("Veltrix is a software company in Tarsk.", {("Veltrix", "is", "software company")}),
    ],
)
def test_a_role_in_a_named_thing(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert {(q.subject, q.predicate, q.object) for q in extract_quintuples(text, "Mara")} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An aside between commas after a name: the name keeps its verb; "in"/"from" a place is said of it.
        ("Tom Reed, in the end, moved to Leeds.", {("Tom Reed", "Leeds")}),
        ("Orla Airfield, in Norland, has 3 runways.", {("Orla Airfield", "3"), ("Orla Airfield", "Norland")}),
        # A participle phrase after an adverb names the same person; the rest is still theirs.
        (
            "Vela Pike, also known as Vee, studied at Orla College.",
            {("Vela Pike", "Vee"), ("Vela Pike", "Orla College")},
        ),
        # A fronted participle before "the <name>".
        ("Located in Tarsk, the Orla Arena was completed in 1987.", {("Orla Arena", "Tarsk"), ("Orla Arena", "1987")}),
        # A name placed in a place keeps its place in the passive.
        (
            "The Orla Memorial in Tarsk was designed by Ida Marsh.",
            {("Ida Marsh", "Orla Memorial"), ("Orla Memorial", "Tarsk")},
        ),
        # "the <noun> of which is" says what "whose <noun> is" says; a relative clause in brackets is read too.
        ("Dunmore lies in Norland, the capital of which is Tarsk.", {("Dunmore", "Norland"), ("Norland", "Tarsk")}),
        (
            "Orla Arena is in Tarsk (the mayor of which is Ida Marsh).",
            {("Orla Arena", "Tarsk"), ("Tarsk", "Ida Marsh")},
        ),
        (
            "Kell Harriers (which has 3000 members) play in Tarsk.",
            {("Kell Harriers", "3000"), ("Kell Harriers", "Tarsk")},
        ),
        # An initialism followed by a word in lower case does not end the sentence (names drop a final dot).
        ("Orla Athletic F.C. has 9000 members.", {("Orla Athletic F.C", "9000")}),
    ],
)
def test_what_is_said_around_a_name(text: str, expected: set[tuple[str, str]]) -> None:
    assert ends(text, "Mara") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "started <doing>": the gerund is the relation, and holds now.
        ("My brother Owen started working at Veltrix.", {("Owen", "works at", "Veltrix"), ("Mara", "brother", "Owen")}),
        # "joined <employer> as a <job>": the job too.
        (
            "I joined Veltrix as a data analyst.",
            {("Mara", "works at", "Veltrix"), ("Mara", "works as", "data analyst")},
        ),
        # A definite description between commas is said of the name; the sentence goes on.
        (
            "Tom Reed, the CEO of Veltrix, lives in Tarsk.",
            {("Tom Reed", "lives in", "Tarsk"), ("Veltrix", "CEO", "Tom Reed")},
        ),
        # A verb written with a hyphenated prefix; a name with "for" after its institution word.
        ("Ida Marsh co-wrote Harbor Lights.", {("Ida Marsh", "co-wrote", "Harbor Lights")}),
        ("Ida Marsh leads the Foundation for Rural Schools.", {("Ida Marsh", "leads", "Foundation for Rural Schools")}),
        # A past tense the verb list lacks still ends the participle phrase before it.
        (
            "The film Harbor Lights, directed by Tom Reed, debuted at the Orla Arts Week.",
            {("Harbor Lights", "debuted at", "Orla Arts Week"), ("Tom Reed", "directed", "Harbor Lights")},
        ),
        # A regular participle before a date is a dated event; "in <date>" after it is no "promoted in".
        (
            "The Orla Museum was inaugurated on 28 September 2013.",
            {("Orla Museum", "inaugurated on", "28 September 2013")},
        ),
        ("Ida Marsh was promoted in August 2017.", set()),
        # A year between a determiner and a noun qualifies the noun; the sentence goes on after it.
        (
            "Orla Town played in the 2016 season and has 1703 members.",
            {("Orla Town", "played in", "2016 season"), ("Orla Town", "number of members", "1703")},
        ),
    ],
)
def test_how_a_verb_phrase_is_read(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert {(q.subject, q.predicate, q.object) for q in extract_quintuples(text, "Mara")} == expected


def test_a_fronted_participle_before_a_kind_and_a_name() -> None:
    assert ends("Born in Tarsk, the painter Ida Marsh wrote Harbor Lights.", "Mara") == {
        ("Ida Marsh", "Harbor Lights"),
        ("Ida Marsh", "Tarsk"),
    }
    assert ends("The Chapel of Kell, built in the 9th century, stands in Tarsk.", "Mara") >= {
        ("Chapel of Kell", "9th century")
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "a <kind> from <place>" says where the subject comes from, places within places too.
        (
            "Kell Pie is a traditional dish from Tarsk in Norland.",
            {
                ("Kell Pie", "is", "traditional dish"),
                ("Kell Pie", "come from", "Tarsk"),
                ("Tarsk", "located in", "Norland"),
            },
        ),
        (
            "Kell Pie is a dish from the country of Norland.",
            {("Kell Pie", "is", "dish"), ("Kell Pie", "come from", "Norland")},
        ),
        # For a person, only a known place: "a colleague from Veltrix" is no origin.
        ("Tom Reed is a colleague from Veltrix.", {("Tom Reed", "is", "colleague")}),
        # A name written in capitals is no pronoun: "the US" is not "us".
        ("I moved to the US last year.", {("Mara", "moved to", "US")}),
    ],
)
def test_where_things_come_from(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert {(q.subject, q.predicate, q.object) for q in extract_quintuples(text, "Mara")} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "the country" is the last place named; the wider of two written together.
        (
            "Velka is the capital of Norland. Ostra is located in the country.",
            {("Norland", "capital", "Velka"), ("Ostra", "located in", "Norland")},
        ),
        (
            "Orla College is in the city of Dunmore, Norland. The country's capital is Tarsk.",
            {
                ("Orla College", "be in", "Dunmore"),
                ("Dunmore", "located in", "Norland"),
                ("Norland", "capital", "Tarsk"),
            },
        ),
        # "they"/"their" stand for the last subject that took a plural verb: a team, "my parents".
        (
            "Kell Harriers play in Tarsk. Their ground is the Orla Park and they have 4200 members.",
            {
                ("Kell Harriers", "play in", "Tarsk"),
                ("Kell Harriers", "ground", "Orla Park"),
                ("Kell Harriers", "number of members", "4200"),
            },
        ),
        (
            "My parents live in Leeds. They have two dogs.",
            {
                ("Mara's parents", "live in", "Leeds"),
                ("Mara", "parents", "Mara's parents"),
                ("Mara's parents", "have", "two dogs"),
            },
        ),
        # No group was named: "they" is no one.
        ("Tom Reed lives in Leeds. They say it rains a lot.", {("Tom Reed", "lives in", "Leeds")}),
    ],
)
def test_what_a_document_refers_back_to(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert {(q.subject, q.predicate, q.object) for q in extract_quintuples(text, "Mara")} == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A measure and a dimension adjective: the attribute is the dimension.
        ("The Kell Canal is 48 miles long.", {("Kell Canal", "length", "48 miles")}),
        # A role written before the agent's name like a title; a second participle after "and" is passive too.
        (
            "The Orla Ferry was built by engineer Ida Marsh and launched in 1931.",
            {("Ida Marsh", "built", "Orla Ferry"), ("Orla Ferry", "launched in", "1931")},
        ),
        # A name's possessed thing named between commas: the name is the subject.
        (
            "Ida Marsh's first film, Harbor Lights, won the Kell Award.",
            {("Harbor Lights", "won", "Kell Award"), ("Ida Marsh", "first film", "Harbor Lights")},
        ),
        # A present verb the list lacks ends a participle aside; "bed" is no past of "be".
        (
            "Velka Tower, built in 1907, overlooks the Tarsk Harbour.",
            {("Velka Tower", "overlooks", "Tarsk Harbour"), ("Velka Tower", "built in", "1907")},
        ),
        ("Ida Marsh bought the Orla water bed.", {("Ida Marsh", "bought", "Orla water bed")}),
    ],
)
def test_what_a_document_sentence_states(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert {(q.subject, q.predicate, q.object) for q in extract_quintuples(text, "Mara")} == expected
