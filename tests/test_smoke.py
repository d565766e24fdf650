from py_engine.core.cards import parse_card

from .scenario import legal, play, start


def test_exchange_then_forty_at_same_lead() -> None:
    # Edge case 9 style smoke test: AT20, trump K face up, leader holds JH and QH.
    m = start("AT20", ["JH", "QH", "AD", "TD", "KD"], ["AC", "TC", "KC", "QC", "JC"], "KH")
    assert m.deal.to_act == 1
    assert "exchange" in legal(m)
    play(m, ["exchange"])
    assert m.deal.hands[1] >> parse_card("KH") & 1
    assert "marry:H" in legal(m)
    play(m, ["marry:H"])
    assert legal(m) == ["claim", "close", "play:KH", "play:QH"]
