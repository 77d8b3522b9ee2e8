"""Reciprocal-rank fusion and the keyword terms of a question (no store)."""

from __future__ import annotations

from elephant_broker.domain.retrieval import RRF_K, keyword_terms, reciprocal_rank_fusion
from elephant_broker.schemas.models import Episode


def episode(eid: str) -> Episode:
    return Episode(id=eid, agent_id="a", session_id="s", speaker="u", source="t", text=eid, created_at=0)


A, B, C, D = (episode(x) for x in "abcd")


def test_rrf_prefers_what_several_signals_rank_well_over_one_signals_first() -> None:
    # b is second in both (2/62), a first in one only (1/61).
    assert [e.id for e in reciprocal_rank_fusion([[A, B, C], [D, B]])][:2] == ["b", "a"]


def test_rrf_ties_keep_first_seen_order_and_duplicates_collapse() -> None:
    fused = reciprocal_rank_fusion([[A, C], [B, D]])
    assert [e.id for e in fused] == ["a", "b", "c", "d"]  # a and b tie at 1/61, a seen first
    assert len(reciprocal_rank_fusion([[A, B], [B, A]])) == 2


def test_rrf_of_nothing_is_nothing_and_k_is_the_papers() -> None:
    assert reciprocal_rank_fusion([]) == []
    assert reciprocal_rank_fusion([[], []]) == []
    assert RRF_K == 60


def test_keyword_terms_keep_content_words_names_and_numbers() -> None:
    terms = keyword_terms("When did Caroline go to the LGBTQ support group in 2023?")
    assert {"caroline", "lgbtq", "support", "group", "2023", "go"} <= set(terms)
    assert not {"when", "did", "the", "to", "in"} & set(terms)


def test_keyword_terms_segment_chinese_and_drop_function_words() -> None:
    terms = keyword_terms("小王在北京大学读什么专业？")
    assert "北京" in terms and "专业" in terms
    assert not {"什么", "在"} & set(terms)


def test_keyword_terms_carry_no_query_syntax() -> None:
    terms = keyword_terms('name:"x" OR * -y | (z) ~w @field')
    assert all(term.isalnum() for term in terms)
