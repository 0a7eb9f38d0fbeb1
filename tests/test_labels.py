"""Labels: AuthorRole, ContentType and FinishReason as open, case-insensitive string values."""

import copy
import json
import pickle

import pytest
from hypothesis import given
from strategies import labels

import semantic_chat
from semantic_chat import AuthorRole, ContentType, FinishReason, Label
from semantic_chat.labels import PLAIN_TEXT

LABEL_KINDS = [AuthorRole, ContentType, FinishReason]


# --- well-known instances -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (AuthorRole.SYSTEM, "system"),
        (AuthorRole.DEVELOPER, "developer"),
        (AuthorRole.USER, "user"),
        (AuthorRole.ASSISTANT, "assistant"),
        (AuthorRole.TOOL, "tool"),
        (ContentType.TEXT, "text"),
        (ContentType.BINARY, "binary"),
        (ContentType.IMAGE, "image"),
        (ContentType.AUDIO, "audio"),
        (ContentType.FILE, "file"),
        (ContentType.FUNCTION_CALL, "function_call"),
        (ContentType.FUNCTION_RESULT, "function_result"),
        (ContentType.REASONING, "reasoning"),
        (ContentType.REFUSAL, "refusal"),
        (ContentType.UNKNOWN, "unknown"),
        (ContentType.STREAMING_TEXT, "streaming_text"),
        (ContentType.STREAMING_FUNCTION_CALL, "streaming_function_call"),
        (ContentType.STREAMING_REASONING, "streaming_reasoning"),
        (FinishReason.STOP, "stop"),
        (FinishReason.LENGTH, "length"),
        (FinishReason.TOOL_CALLS, "tool_calls"),
        (FinishReason.CONTENT_FILTER, "content_filter"),
    ],
)
def test_well_known_label_has_its_lower_case_text(value, text):
    assert value.label == text


@pytest.mark.parametrize("kind", LABEL_KINDS)
def test_well_known_constant_name_is_its_label_upper_case(kind):
    constants = {name: value for name, value in vars(kind).items() if name.isupper()}
    assert constants
    for name, value in constants.items():
        assert type(value) is kind
        assert value.label == name.lower()


def test_labels_are_str_subclasses_of_label():
    assert isinstance(AuthorRole.USER, Label)
    assert isinstance(AuthorRole.USER, str)


# --- interning ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["user", "USER", "User", "uSeR"])
def test_well_known_label_is_interned_in_any_case(text):
    assert AuthorRole(text) is AuthorRole.USER


def test_label_of_its_own_kind_is_returned_unchanged():
    critic = AuthorRole("critic")
    assert AuthorRole(critic) is critic


def test_label_of_another_kind_converts_by_text():
    assert AuthorRole(ContentType("user")) is AuthorRole.USER


def test_label_of_another_kind_converts_to_a_custom_label():
    role = AuthorRole(ContentType("text"))
    assert type(role) is AuthorRole
    assert role.label == "text"


def test_each_kind_interns_separately():
    assert ContentType("text") is ContentType.TEXT
    assert type(AuthorRole("text")) is AuthorRole


# --- custom labels --------------------------------------------------------------------------


def test_custom_label_is_legal_and_stored_lower_case():
    role = AuthorRole("Critic")
    assert role.label == "critic"
    assert type(role) is AuthorRole


def test_custom_label_keeps_inner_whitespace_and_punctuation():
    assert AuthorRole(" Tool Runner-2 ").label == " tool runner-2 "


@pytest.mark.parametrize("kind", LABEL_KINDS)
def test_custom_label_of_every_kind(kind):
    assert kind("Whatever").label == "whatever"


# --- invalid values -------------------------------------------------------------------------


@pytest.mark.parametrize("blank", ["", " ", "  ", "\t\n", "\u3000"])
def test_blank_label_raises_value_error(blank):
    with pytest.raises(ValueError, match="must not be blank"):
        AuthorRole(blank)


def test_blank_label_error_is_invalid_value_error_with_exact_message():
    with pytest.raises(semantic_chat.InvalidValueError) as excinfo:
        AuthorRole("  ")
    assert str(excinfo.value) == "AuthorRole: a label must not be blank, got '  '"
    assert excinfo.value.path == "AuthorRole"


@pytest.mark.parametrize(
    ("value", "type_name"), [(None, "NoneType"), (3, "int"), (b"user", "bytes"), (1.5, "float")]
)
def test_non_string_label_raises_type_error_naming_class_and_type(value, type_name):
    with pytest.raises(TypeError) as excinfo:
        AuthorRole(value)
    assert isinstance(excinfo.value, semantic_chat.InvalidTypeError)
    assert str(excinfo.value) == f"AuthorRole: expected a str, got {type_name}"
    assert excinfo.value.got == type_name


@pytest.mark.parametrize("kind", LABEL_KINDS)
def test_non_string_error_names_the_label_class(kind):
    with pytest.raises(semantic_chat.InvalidTypeError, match=f"^{kind.__name__}: "):
        kind(None)


def test_unhashable_non_string_raises_invalid_type_error():
    with pytest.raises(semantic_chat.InvalidTypeError, match="expected a str, got list"):
        AuthorRole(["user"])


# --- equality and hashing -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["user", "USER", "User"])
def test_label_equals_string_case_insensitively(text):
    role = AuthorRole.USER
    assert role == text
    assert text == role


def test_label_not_equal_to_other_string():
    assert AuthorRole.USER != "assistant"
    assert (AuthorRole.USER != "USER") is False


def test_label_not_equal_to_non_string():
    assert AuthorRole.USER != 3
    assert AuthorRole.USER != None  # noqa: E711
    assert AuthorRole.USER != b"user"


def test_labels_of_one_kind_equal_when_lower_case_texts_equal():
    assert AuthorRole("Critic") == AuthorRole("CRITIC")
    assert AuthorRole("critic") != AuthorRole("judge")


def test_labels_of_different_kinds_are_unequal():
    assert AuthorRole("text") != ContentType("text")
    assert ContentType("text") != AuthorRole("text")
    assert FinishReason("stop") != AuthorRole("stop")


def test_hash_is_hash_of_lower_case_string():
    assert hash(AuthorRole("Critic")) == hash("critic")
    assert hash(AuthorRole.USER) == hash("user")


def test_label_works_as_dict_key_and_finds_lower_case_string():
    table = {AuthorRole.USER: 1, AuthorRole("Critic"): 2}
    assert table["user"] == 1
    assert table[AuthorRole("CRITIC")] == 2
    assert table[AuthorRole("critic")] == 2


def test_lower_case_string_key_is_found_by_label():
    assert {"user": 1}[AuthorRole("USER")] == 1


def test_dict_lookup_by_upper_case_string_misses():
    # Equal objects should hash alike; a label equals "USER" but hashes as "user". The module
    # docstring promises lookup by the lower-case string only; this pins that limit.
    assert AuthorRole.USER == "USER"
    assert "USER" not in {AuthorRole.USER: 1}


def test_set_of_labels_deduplicates_case_variants():
    assert {AuthorRole("A"), AuthorRole("a"), AuthorRole.USER, AuthorRole("USER")} == {
        AuthorRole("a"),
        AuthorRole.USER,
    }


# --- text forms -----------------------------------------------------------------------------


def test_str_gives_plain_label():
    text = str(AuthorRole("Critic"))
    assert text == "critic"
    assert type(text) is str


def test_f_string_gives_plain_label():
    assert f"{AuthorRole.USER}" == "user"
    assert f"[{ContentType.FUNCTION_CALL}]" == "[function_call]"


def test_format_spec_applies_to_label_text():
    assert f"{AuthorRole.USER:>6}" == "  user"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (AuthorRole.USER, "AuthorRole('user')"),
        (AuthorRole("Critic"), "AuthorRole('critic')"),
        (ContentType.IMAGE, "ContentType('image')"),
        (FinishReason.TOOL_CALLS, "FinishReason('tool_calls')"),
    ],
)
def test_repr(value, text):
    assert repr(value) == text


def test_label_property_is_plain_str():
    assert AuthorRole("Critic").label == "critic"
    assert type(AuthorRole("Critic").label) is str


def test_label_goes_into_json_as_a_string():
    assert json.dumps({"role": AuthorRole.USER}) == '{"role": "user"}'


# --- copying and immutability ---------------------------------------------------------------


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_keeps_well_known_label_identity(protocol):
    assert pickle.loads(pickle.dumps(AuthorRole.USER, protocol)) is AuthorRole.USER


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_round_trips_custom_label(protocol):
    restored = pickle.loads(pickle.dumps(FinishReason("Paused"), protocol))
    assert type(restored) is FinishReason
    assert restored == FinishReason("paused")


def test_deepcopy_round_trips():
    role = AuthorRole("critic")
    copied = copy.deepcopy({"r": role, "u": AuthorRole.USER})
    assert copied == {"r": role, "u": AuthorRole.USER}
    assert type(copied["r"]) is AuthorRole
    assert copied["u"] is AuthorRole.USER


def test_copy_keeps_type():
    assert type(copy.copy(ContentType("video"))) is ContentType


def test_label_attribute_cannot_be_assigned():
    with pytest.raises(AttributeError):
        AuthorRole.USER.label = "admin"  # type: ignore[misc]


def test_label_has_no_instance_dict():
    with pytest.raises(AttributeError):
        AuthorRole("critic").extra = 1  # type: ignore[attr-defined]


# --- match ----------------------------------------------------------------------------------


def _describe(role: object) -> str:
    match role:
        case AuthorRole.USER:
            return "user"
        case AuthorRole.ASSISTANT:
            return "assistant"
        case AuthorRole():
            return f"other role {role}"
        case _:
            return "not a role"


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        (AuthorRole("USER"), "user"),
        ("User", "user"),
        (AuthorRole.ASSISTANT, "assistant"),
        (AuthorRole("critic"), "other role critic"),
        ("critic", "not a role"),
    ],
)
def test_match_against_well_known_values(subject, expected):
    assert _describe(subject) == expected


def test_label_subject_matches_literal_string_pattern():
    match AuthorRole("TOOL"):
        case "tool":
            matched = True
        case _:
            matched = False
    assert matched


# --- properties -----------------------------------------------------------------------------


@given(labels())
def test_label_is_its_text_lower_cased(text):
    assert AuthorRole(text).label == text.lower()


@given(labels())
def test_label_equals_the_text_it_was_made_from_and_its_lower_case(text):
    role = AuthorRole(text)
    assert role == text
    assert role == text.lower()
    assert text == role


@given(labels(), labels())
def test_labels_equal_iff_lower_cased_texts_equal(first, second):
    assert (AuthorRole(first) == AuthorRole(second)) == (first.lower() == second.lower())
    assert (AuthorRole(first) != AuthorRole(second)) == (first.lower() != second.lower())


@given(labels(), labels())
def test_hash_consistent_with_equality_within_a_kind(first, second):
    if ContentType(first) == ContentType(second):
        assert hash(ContentType(first)) == hash(ContentType(second))


@given(labels())
def test_hash_is_hash_of_lower_cased_text(text):
    assert hash(FinishReason(text)) == hash(text.lower())


@given(labels())
def test_relabelling_is_idempotent(text):
    role = AuthorRole(text)
    assert AuthorRole(role.label) == role
    assert AuthorRole(str(role)).label == role.label


@given(labels())
def test_labels_of_different_kinds_never_equal(text):
    assert AuthorRole(text) != ContentType(text)


@given(labels())
def test_pickle_round_trip_property(text):
    role = AuthorRole(text)
    restored = pickle.loads(pickle.dumps(role))
    assert restored == role
    assert type(restored) is AuthorRole


# --- what case-insensitivity does not cover -------------------------------------------------
# Labels compare by str.lower(), not str.casefold(), and lower() and upper() are not inverse
# for every character: these are the honest counterexamples to "AuthorRole(s) ==
# AuthorRole(s.upper())".


@pytest.mark.parametrize("text", ["ß", "\u0131", "\u017f", "µ", "ς", "ﬁ", "straße"])
def test_upper_casing_can_change_a_label(text):
    assert AuthorRole(text) != AuthorRole(text.upper())


def test_dotted_capital_i_lowers_to_two_characters():
    assert AuthorRole("İ").label == "i\u0307"
    assert AuthorRole("İ") != "i"


def test_capital_sharp_s_equals_sharp_s():
    assert AuthorRole("ẞ") == AuthorRole("ß")


def test_final_sigma_is_context_sensitive():
    assert AuthorRole("ΑΣ").label == "ας"
    assert AuthorRole("ΑΣ") != AuthorRole("\u03b1\u03c3")


def test_ascii_upper_casing_keeps_a_label():
    assert AuthorRole("function_Call-2") == AuthorRole("FUNCTION_CALL-2")


def test_plain_text_gives_a_plain_str_for_any_label():
    size = len(PLAIN_TEXT)
    plain = PLAIN_TEXT[AuthorRole.USER]
    assert (plain, type(plain)) == ("user", str)
    assert PLAIN_TEXT[AuthorRole.USER] is plain  # one kept copy, not a new one per call
    assert PLAIN_TEXT[FinishReason.TOOL_CALLS] == "tool_calls"
    custom = PLAIN_TEXT[AuthorRole("Critic")]
    assert (custom, type(custom)) == ("critic", str)
    assert len(PLAIN_TEXT) == size  # labels nobody defined are not kept


def test_label_hash_and_str_are_those_of_its_text():
    assert hash(AuthorRole.USER) == hash("user")
    assert {AuthorRole.USER: 1}["user"] == 1
    assert (str(AuthorRole("critic")), type(str(AuthorRole("critic")))) == ("critic", str)
