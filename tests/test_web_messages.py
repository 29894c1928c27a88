"""The web table's WebSocket messages read on their own (parlour.web.messages): each known
message becomes its typed form, each malformed envelope is refused with the words a client is
sent, and a malformed field is kept as what refuses it later. What the server sends keeps its
fields in the order they go on the wire."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from parlour.web.messages import (
    ACTION_LIMIT,
    MESSAGE_LIMIT,
    SAY_HELLO,
    ActionText,
    AskHint,
    AskReview,
    Back,
    BadMessage,
    BadMove,
    CardPick,
    ChatLine,
    Hello,
    NextDeal,
    Ping,
    Play,
    React,
    Say,
    Timer,
    WebError,
    chat_message,
    error,
    hint_reply,
    notice,
    parse,
    parse_hello,
    pong,
    rematch_message,
    review_reply,
    update,
    welcome,
)


def text(message: Any) -> str:
    return json.dumps(message)


@pytest.mark.parametrize(("sent", "read"), [
    ({"type": "action", "token": "t", "action": "3D 3S", "ref": 1},
     Play("t", ActionText("3D 3S"), 1)),
    ({"type": "action", "token": "t", "verb": "play", "cards": ["3D", "3S"]},
     Play("t", CardPick("play", ("3D", "3S")))),
    ({"type": "action", "token": "t", "verb": "knock"}, Play("t", CardPick("knock", ()))),
    ({"type": "next_deal", "token": "t", "ref": [1, "a"]}, NextDeal("t", [1, "a"])),
    ({"type": "hint", "token": "t", "ref": {"n": 2}}, AskHint("t", {"n": 2})),
    ({"type": "review", "token": "t", "deal": 3}, AskReview("t", 3)),
    ({"type": "review", "token": "t"}, AskReview("t", None)),
    ({"type": "back", "token": "t"}, Back("t")),
    ({"type": "ping", "ref": "r"}, Ping("r")),
])
def test_each_known_message_is_read_into_its_type(sent: dict[str, Any], read: Any) -> None:
    assert parse(text(sent)) == read


def test_a_token_that_is_no_text_is_read_as_none() -> None:
    # Refused later by the seat's check as a missing token, as it always was.
    for token in (None, 7, ["t"], {"t": 1}, True):
        assert parse(text({"type": "back", "token": token})) == Back(None)
    assert parse(text({"type": "back"})) == Back(None)


@pytest.mark.parametrize(("deal", "read"), [
    (2, 2), (0, 0), (-4, -4), (2**70, 2**70), (None, 0), (True, 0), (1.0, 0), ("1", 0),
    ([1], 0),
])
def test_a_review_of_a_deal_that_is_no_whole_number_is_deal_0(deal: Any, read: int) -> None:
    # Deal 0 is no deal: refused with the same words as any deal out of range.
    message = parse(text({"type": "review", "token": "t", "deal": deal}))
    assert isinstance(message, AskReview) and message.deal == read


@pytest.mark.parametrize(("fields", "reason"), [
    ({"action": 7}, "'action' must be the text of an action, such as \"3D 3S\""),
    ({"action": None}, "'action' must be the text of an action"),
    ({"action": "3D " * 100}, f"an action is at most {ACTION_LIMIT} characters, not '3D 3D"),
    ({}, "an action message needs 'action' (text), or 'verb' (text) and 'cards'"),
    ({"verb": "play", "cards": "3D"}, "an action message needs"),
    ({"verb": "play", "cards": ["3D", 3]}, "an action message needs"),
    ({"verb": 5, "cards": []}, "an action message needs"),
    ({"verb": "play", "cards": ["3D"] * 53}, "a verb is a word and 'cards' lists at most 52"),
    ({"verb": "p" * (ACTION_LIMIT + 1), "cards": []}, "a verb is a word"),
])
def test_a_malformed_move_is_kept_as_its_refusal(fields: dict[str, Any], reason: str) -> None:
    """Not refused as it is read: a move from the wrong seat, or out of turn, is refused for
    that first; its own fault is said when it would be played."""
    message = parse(text({"type": "action", "token": "t", "ref": 4, **fields}))
    assert isinstance(message, Play) and message.token == "t" and message.ref == 4
    assert isinstance(message.move, BadMove) and message.move.reason.startswith(reason)
    assert len(message.move.reason) < 120  # a long action text is quoted short


def test_the_longest_moves_allowed_are_read() -> None:
    longest = "x" * ACTION_LIMIT
    assert parse(text({"type": "action", "action": longest})) == Play(None, ActionText(longest))
    cards = ["3D"] * 52
    assert parse(text({"type": "action", "verb": "play", "cards": cards})) == Play(
        None, CardPick("play", tuple(cards)))


@pytest.mark.parametrize(("raw", "words", "ref"), [
    ("{not json", "the message is not valid JSON", None),
    ("[" * 5000 + "]" * 5000, "the message is not valid JSON: it is nested too deeply", None),
    ("x" * (MESSAGE_LIMIT + 1), f"a message is at most {MESSAGE_LIMIT} characters", None),
    (text([1, 2]), 'a message is a JSON object with a "type"', None),
    (text("ping"), 'a message is a JSON object with a "type"', None),
    (text({"type": "ping", "ref": "r" * 99}), "a 'ref' is at most 100 characters of JSON", None),
    (text({"type": "shout", "ref": 3}), "unknown message type 'shout'; the types are: hello, "
     "action, hint, review, next_deal, back, ping", 3),
    (text({"type": ["a"], "ref": "r"}), "unknown message type ['a']", "r"),
    (text({"ref": "r"}), "unknown message type None", "r"),
    (text({"type": "hello", "token": None, "ref": 5}), "this connection has already said hello",
     5),
])
def test_a_bad_envelope_is_refused_with_the_ref_to_answer(raw: str, words: str,
                                                          ref: Any) -> None:
    with pytest.raises(BadMessage) as refused:
        parse(raw)
    assert str(refused.value).startswith(words) and refused.value.ref == ref
    assert refused.value.status == 400


def test_the_longest_ref_is_echoed() -> None:
    assert parse(text({"type": "ping", "ref": "r" * 98})) == Ping("r" * 98)


def test_hello_reads_a_token_a_spectator_or_a_token_to_refuse() -> None:
    assert parse_hello(text({"type": "hello", "token": "t", "ref": 1})) == Hello("t", False, 1)
    assert parse_hello(text({"type": "hello", "token": None})) == Hello(None, True)
    assert parse_hello(text({"type": "hello"})) == Hello(None, True)
    # A token that is no text is not a spectator's hello: the seat's check refuses it.
    assert parse_hello(text({"type": "hello", "token": 5})) == Hello(None, False)


@pytest.mark.parametrize("first", [
    {"type": "ping"}, {"type": "action", "token": "t", "action": "pass"}, {"type": "shout"},
    {"token": "t"},
])
def test_anything_but_a_hello_first_is_told_to_say_hello(first: dict[str, Any]) -> None:
    with pytest.raises(BadMessage) as refused:
        parse_hello(text(first))
    assert str(refused.value) == SAY_HELLO


def test_hello_refuses_a_bad_envelope_for_what_it_is() -> None:
    with pytest.raises(BadMessage) as refused:
        parse_hello("[]")
    assert str(refused.value) == 'a message is a JSON object with a "type"'


def test_messages_read_cannot_be_changed() -> None:
    message = parse(text({"type": "action", "token": "t", "action": "pass"}))
    assert isinstance(message, Play)
    with pytest.raises(dataclasses.FrozenInstanceError):
        message.token = "other"  # type: ignore[misc]


def test_a_refusal_never_grows_with_what_was_sent() -> None:
    refusal = WebError("x" * 10_000, 429, retry_after=2.0)
    assert len(str(refusal)) == 300 and str(refusal).endswith("…")
    assert (refusal.status, refusal.retry_after) == (429, 2.0)


def test_what_the_server_sends_keeps_its_fields_in_order() -> None:
    timer: Timer = {"seat": 1, "seconds": 2.5}
    sent = [
        (welcome(None, {"id": "t"}), '{"type": "welcome", "seat": null, "table": {"id": "t"}}'),
        (update(3, {}, {"seat": 0}, timer),
         '{"type": "update", "version": 3, "table": {}, "view": {"seat": 0}, '
         '"timer": {"seat": 1, "seconds": 2.5}}'),
        (notice("n"), '{"type": "notice", "message": "n"}'),
        (error("e", [1]), '{"type": "error", "message": "e", "ref": [1]}'),
        (pong(None), '{"type": "pong", "ref": null}'),
        (rematch_message("t-2", 1), '{"type": "rematch", "table": "t-2", "by": 1}'),
        (hint_reply({"action": "pass", "reason": "r", "confidence": "c", "details": "d"}, 9),
         '{"type": "hint", "action": "pass", "reason": "r", "confidence": "c", "details": "d", '
         '"ref": 9}'),
        (review_reply({"deal": 2, "level": "expert", "lines": ["l"], "decisions": []}, "x"),
         '{"type": "review", "deal": 2, "level": "expert", "lines": ["l"], "decisions": [], '
         '"ref": "x"}'),
    ]
    for message, wire in sent:
        assert json.dumps(message) == wire


# -- the chat ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("sent", "read"), [
    ({"type": "chat", "token": "t", "text": "good luck", "ref": 1}, Say("t", "good luck", 1)),
    ({"type": "chat", "token": "t", "text": "  <b>x</b>\n"}, Say("t", "  <b>x</b>\n")),
    ({"type": "chat", "text": ""}, Say(None, "")),
    ({"type": "react", "token": "t", "reaction": "thanks", "ref": "r"},
     React("t", "thanks", "r")),
    ({"type": "react", "token": "t", "reaction": "shout"}, React("t", "shout")),
])
def test_chat_and_reactions_are_read_into_their_types(sent: dict[str, Any], read: Any) -> None:
    # Read as sent: the table's chat strips and checks a line once the seat is known.
    assert parse(text(sent)) == read


@pytest.mark.parametrize("value", [None, 7, 1.5, True, ["hi"], {"text": "hi"}])
def test_a_chat_text_or_reaction_that_is_no_text_is_read_as_none(value: Any) -> None:
    assert parse(text({"type": "chat", "token": "t", "text": value})) == Say("t", None)
    assert parse(text({"type": "react", "token": "t", "reaction": value})) == React("t", None)
    assert parse(text({"type": "chat", "token": "t"})) == Say("t", None)
    assert parse(text({"type": "react", "token": "t"})) == React("t", None)


def test_an_unknown_type_names_the_chats_among_the_types() -> None:
    with pytest.raises(BadMessage) as refused:
        parse(text({"type": "whisper", "text": "psst"}))
    assert str(refused.value).endswith("the types are: hello, action, hint, review, next_deal, "
                                       "back, ping, chat, react")


def test_a_chat_message_keeps_its_fields_in_order() -> None:
    line: ChatLine = {"n": 3, "seat": 1, "name": "Bob", "text": "hi", "reaction": None,
                      "t": 12.5}
    assert json.dumps(chat_message([line])) == (
        '{"type": "chat", "lines": [{"n": 3, "seat": 1, "name": "Bob", "text": "hi", '
        '"reaction": null, "t": 12.5}]}')
