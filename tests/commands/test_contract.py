"""The contract is written once: the Python types give types/engine.d.ts, and they agree with the engine's tables.

``python build.py types`` (and every build) writes types/engine.d.ts from
py_engine/service/contract.py and the rules' value types; a change to a
Python type without writing the file again fails here. The rules' ``Literal``
types hold exactly the values of ``CHOICES``, a rule set's fields are the
``Rules`` dataclass's, and ``Answers`` names every command of the page.
tests/cpython/test_answers.py checks the engine's real answers against the
same types.
"""

from __future__ import annotations

import dataclasses
import difflib
from pathlib import Path
from typing import Literal, get_args, get_origin, get_type_hints

import build
from py_engine.core import rules
from py_engine.service import contract, table
from py_engine.service.protocol import PAGE_COMMANDS


def test_types_engine_d_ts_is_what_the_python_types_give() -> None:
    written = build.TYPES_FILE.read_text("utf-8")
    generated = build.engine_types()
    diff = "".join(
        difflib.unified_diff(
            written.splitlines(keepends=True),
            generated.splitlines(keepends=True),
            "types/engine.d.ts (committed)",
            "types/engine.d.ts (from the Python types)",
        )
    )
    assert written == generated, f"run `python build.py types`:\n{diff[:4000]}"


def test_every_rule_parameter_has_the_values_of_choices_as_its_type() -> None:
    hints = get_type_hints(rules.Rules)
    for param in rules.PARAMETERS:
        if param in rules.BOOLEANS:
            assert hints[param] is bool, param
        else:
            assert get_origin(hints[param]) is Literal, param
            assert get_args(hints[param]) == rules.CHOICES[param], param
    assert set(rules.CHOICES) | set(rules.BOOLEANS) == set(rules.PARAMETERS)


def test_a_rule_set_has_the_fields_of_the_rules() -> None:
    fields = {f.name: get_type_hints(rules.Rules)[f.name] for f in dataclasses.fields(rules.Rules)}
    assert get_type_hints(contract.RuleSet) == fields
    assert contract.RuleSet.__required_keys__ == set(fields)
    assert set(rules.PRESETS["HU24"].to_dict()) == set(fields)


def test_the_contract_s_literals_are_the_engine_s_tuples() -> None:
    from py_engine.puzzles import catalogue, rating, solving
    from py_engine.service.online import voice

    assert get_args(contract.Mode) == table.MODES
    assert get_args(contract.Theme) == catalogue.THEMES
    assert get_args(contract.PuzzleKind) == catalogue.KINDS
    assert get_args(contract.Band) == tuple(name for name, _ in rating.BANDS)
    assert get_args(contract.AttemptStatus) == (solving.PLAYING, solving.SOLVED, solving.FAILED, solving.SHOWN)
    assert get_args(contract.VoiceEnding) == voice.VOICE_ENDINGS


def test_answers_names_every_command_of_the_page() -> None:
    assert set(get_type_hints(contract.Answers)) == PAGE_COMMANDS


def test_a_type_the_generator_cannot_write_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "contract.py"
    source.write_text('from typing import TypedDict\n\n\nclass A(TypedDict):\n    """A."""\n\n    x: set[int]\n')
    try:
        build.engine_types((source,))
    except build.TypesError as e:
        assert "set[int]" in str(e)
    else:
        raise AssertionError("a set was written as TypeScript")
