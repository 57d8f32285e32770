"""``domino verify``: a match log's chain head, a signed acta, its place in its club's
transparency log, and that a club's log today extends the one a member kept, all checked on
the member's own machine (docs/verify.md). Neither the database nor the service is loaded:
only the rules core and ``referee.seal`` (RFC 8785, and ``cryptography`` for a signature). What
is not given as a file is fetched from the club's server over HTTP(S) (the standard library's
urllib), with ``--token`` for a private club.

Exit status (docs/verify.md, "`domino verify`"): 0 verified and clean; 1 verified, but the record holds violations or
open disputes; 2 a file could not be read (or fetched); 3 verification failed.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, NoReturn

import click

from referee import LogError, MatchLog, replay
from referee.core import acta as sheet
from referee.core.log import json_problem, reject_constant, unique_keys
from words import N_, _

from .logfiles import log_problem, read_bytes, read_capped, read_file

CLEAN, FLAGGED, UNREADABLE, FAILED = 0, 1, 2, 3
TIMEOUT_SECONDS = 30
DETAIL_CHARS = 300  # of a refusal's detail (a problem's, or the body's text), said after its status
MAX_DETAIL_BYTES = 64 * 1024  # of a refusal's body read for its detail: a problem is far less
TOKEN_VARIABLE = "DOMINO_TOKEN"

# Every sentence this command says.
TEXT = {
    "usage": N_("give a LOG, an --acta FILE, or --since OLD_HEAD and today's head"),
    "since_arg": N_("--since OLD_HEAD takes today's head as its argument: a URL "
                    "(https://.../api/v1/clubs/CLUB/transparency) or a file"),
    "no_keys": N_("%(what)s needs the club's keys: --key KEYS (the JSON of "
                  "GET /api/v1/clubs/CLUB/keys, kept from before), or a URL to fetch them from"),
    "no_proof": N_("%(what)s needs its proof: --proof FILE, or a URL (the head's, or --proof's)"),
    "unfetchable": N_("%(source)s: cannot fetch it: %(reason)s"),
    "http_status": N_("the server answered HTTP %(status)s: %(detail)s"),
    "not_a_url": N_("not a URL that can be fetched"),
    "bad_token": N_("--token (or DOMINO_TOKEN): a bearer token is printable ASCII, without "
                    "spaces"),
    "not_json": N_("%(source)s: not JSON: %(reason)s"),
    "not_object": N_("%(source)s: not a JSON object"),
    "not_acta": N_("%(source)s: not a domino-acta/2 or /1 acta (its format is %(format)s)"),
    "not_head": N_("%(source)s: not a domino-tree-head/1 (its format is %(format)s)"),
    "bad_key": N_("--key: %(reason)s"),
    "head": N_("the log's chain head is %(actual)s, not %(expected)s: the log is not that record"),
    "flagged_log": N_("%(log)s: %(count)s open dispute(s) or violation(s): domino validate lists them"),
    "flagged_acta": N_("the acta records %(count)s open dispute(s)"),
    "fetched_keys": N_("keys fetched from the server that signed (trust on first use): keep them "
                       "and give --key next time"),
    "log_line": N_("%(log)s: chain head %(head)s (%(events)s events)"),
    "acta_line": N_("%(acta)s: acta of match %(match)s, signed by %(key_id)s, chain head %(head)s: the "
                    "signature holds%(against)s"),
    "against": N_(", and agrees with %(log)s"),
    "included": N_("%(acta)s: leaf %(index)s of club %(club)s's tree of %(size)s leaves (root %(root)s...): "
                   "included"),
    "extends": N_("club %(club)s's tree of %(new)s leaves (root %(root)s...) extends the one of %(old)s "
                  "leaves you kept: nothing in it was changed or removed"),
}


def sentence(key: str, **params: object) -> str:
    """TEXT[key] in the language of the moment, its placeholders filled."""
    return _(TEXT[key], **params)


@click.command(help=N_("""\
Check a match log and print its chain head; check a signed acta, its inclusion in its
club's transparency log, and that the log today extends one kept from before.

LOG is a domino-log/1 file (- for stdin): it is replayed and its chain head (domino-chain/1,
docs/verify.md) printed; --head HEX says what it must be.

With --acta FILE the acta's Ed25519 signature is checked against --key, the club's keys
(an acta signed outside its key's validity fails); with LOG as well, its chain head,
players, rounds, rulings, totals and winner must be the log's. With --tree-head HEAD, the
head's signature and the acta's inclusion proof are checked (RFC 9162).

With --since OLD_HEAD, the argument is today's head of the same club (a URL or a file), and
the consistency proof between the two is checked: a tree rewritten, or cut short, fails.

Exit status: 0 verified and clean; 1 verified, but the record holds violations or open
disputes; 2 a file could not be read or fetched; 3 verification failed.

\b
Example:
  domino verify table7.jsonl
  domino verify --acta acta-12.json --key keys.json table7.jsonl
  domino verify --acta acta-12.json --key keys.json \\
      --tree-head https://club.example/api/v1/clubs/casino/transparency
  domino verify --key keys.json --since head-june.json \\
      https://club.example/api/v1/clubs/casino/transparency"""))
@click.argument("source", required=False, metavar="[LOG | HEAD]")
@click.option("--acta", "acta_path", metavar="FILE",
              help=N_("Check this signed acta: its signature against --key, and with LOG, that "
                      "its head and scores are the log's."))
@click.option("--key", "key", metavar="KEYS",
              help=N_("The club's keys: the JSON of GET /api/v1/clubs/CLUB/keys (a file, a URL, "
                      "or the text), or one public key (PEM, base64, JSON)."))
@click.option("--tree-head", "tree_head", metavar="HEAD",
              help=N_("With --acta: check that the acta is a leaf of the club's tree under this "
                      "signed head (a file, or a URL: .../api/v1/clubs/CLUB/transparency[/head])."))
@click.option("--proof", "proof", metavar="PROOF",
              help=N_("The inclusion (--tree-head) or consistency (--since) proof: a file, or a "
                      "URL; fetched from the head's URL when left out."))
@click.option("--since", "since", metavar="OLD_HEAD",
              help=N_("Check that today's tree (the argument: a URL or a file) extends the one "
                      "this head, kept from before, signed."))
@click.option("--head", "expected_head", metavar="HEX",
              help=N_("With LOG: the chain head the log must have (as the match page shows it)."))
@click.option("--token", envvar=TOKEN_VARIABLE, metavar="TOKEN",
              help=N_("A bearer token of the club, to fetch from a private club (default: "
                      "DOMINO_TOKEN)."))  # TOKEN_VARIABLE's name, written out for the catalogs
@click.option("--json", "as_json", is_flag=True, help=N_("Print the outcome as one JSON object."))
def verify(source: str | None, acta_path: str | None, key: str | None, tree_head: str | None,
           proof: str | None, since: str | None, expected_head: str | None, token: str | None,
           as_json: bool) -> None:
    run = Run(token)
    if since is not None:
        if source is None:
            raise click.UsageError(sentence("since_arg"))
        run.since(since, source, key, proof)
    else:
        if source is None and acta_path is None:
            raise click.UsageError(sentence("usage"))
        log = run.log(source, expected_head) if source is not None else None
        if acta_path is not None:
            run.acta(acta_path, key, log, source, tree_head, proof)
    run.finish(as_json)


class Run:
    """One verification: what was found, and the problems."""

    def __init__(self, token: str | None) -> None:
        self.token = token
        self.outcome: dict[str, Any] = {"ok": True, "problems": [], "notes": []}
        self.lines: list[str] = []
        self.flagged = False

    # ------------------------------------------------------------------------ the log

    def log(self, path: str, expected_head: str | None) -> MatchLog:
        log = _read_log(path)
        header = log.header
        result = replay(header.rules, header.players, log.events)
        part = sheet.from_log(header.fields, log.events, result)
        head = part["chain"]["head"]
        flags = part["open_disputes"]  # refused events and fouls no ruling settled
        self.outcome.update(head=head, events=len(log.events), valid=not flags,
                            violations=flags)
        self.lines.append(sentence("log_line", log=path, head=head, events=len(log.events)))
        if expected_head is not None and expected_head.strip().lower() != head:
            self.problem(sentence("head", actual=head, expected=expected_head))
        if flags:
            self.flag(sentence("flagged_log", log=path, count=flags))
        return log

    # ----------------------------------------------------------------------- the acta

    def acta(self, path: str, key: str | None, log: MatchLog | None, log_path: str | None,
             tree_head: str | None, proof: str | None) -> None:
        from referee.seal import documents

        acta = self.document(path, "acta")
        head_url = _base(tree_head) if tree_head is not None and _is_url(tree_head) else None
        keys = self.keys(key, head_url, "--acta")
        signed_chain = acta.get("chain")
        self.outcome["acta"] = {
            "match": acta.get("match"), "club": acta.get("club"), "key_id": acta.get("key_id"),
            "head": signed_chain.get("head") if isinstance(signed_chain, dict) else None}
        failed = documents.signature_problems(acta, keys, "the acta")
        if log is not None:
            header = log.header
            expected = sheet.from_log(header.fields, log.events,
                                      replay(header.rules, header.players, log.events),
                                      form=acta["format"])
            failed += sheet.differences(acta, expected)
        for problem in failed:
            self.problem(problem)
        if not failed:
            against = sentence("against", log=log_path) if log is not None else ""
            self.lines.append(sentence("acta_line", acta=path, against=against,
                                                       **self.outcome["acta"]))
        if type(acta.get("open_disputes")) is int and acta["open_disputes"] > 0:
            self.flag(sentence("flagged_acta", count=acta["open_disputes"]))
        if tree_head is not None:
            head = self.head(tree_head, keys)
            index, size = acta.get("leaf_index"), head.get("size")
            found = self.proof(proof, head_url, "--tree-head",
                               f"inclusion?index={index}&size={size}")
            problems = documents.inclusion_problems(acta, head, found)
            for problem in problems:
                self.problem(problem)
            self.outcome["tree"] = {"club": head.get("club"), "size": size,
                                    "root": head.get("root"), "leaf_index": index,
                                    "included": not problems}
            if not problems:
                self.lines.append(sentence("included", acta=path, index=index, size=size,
                                                          club=head.get("club"),
                                                          root=str(head.get("root"))[:16]))

    # ------------------------------------------------------------------------ the tree

    def since(self, old_path: str, new_source: str, key: str | None, proof: str | None) -> None:
        from referee.seal import documents

        base = _base(new_source) if _is_url(new_source) else None
        keys = self.keys(key, base, "--since")
        old = self.head(old_path, keys, "the old tree head")
        new = self.head(f"{base}/head" if base is not None else new_source, keys)
        # A tree cut short or rewritten is caught by the heads alone (the server would refuse
        # a proof from more leaves than it has: that is a failed check, not a failed fetch),
        # and so is a head whose signature fails: no proof is asked for then.
        problems = documents.heads_problems(old, new)
        if not problems and not self.outcome["problems"]:
            found = self.proof(proof, base, "--since",
                               f"consistency?from={old.get('size')}&to={new.get('size')}")
            problems = documents.consistency_problems(old, new, found)
        for problem in problems:
            self.problem(problem)
        consistent = not self.outcome["problems"]
        self.outcome["tree"] = {"club": new.get("club"), "from": old.get("size"),
                                "to": new.get("size"), "root": new.get("root"),
                                "consistent": consistent}
        if consistent:
            self.lines.append(sentence("extends", club=new.get("club"), new=new.get("size"),
                                                     old=old.get("size"),
                                                     root=str(new.get("root"))[:16]))

    def head(self, source: str, keys: list[Any], what: str = "the tree head") -> dict[str, Any]:
        from referee.seal import documents

        if _is_url(source) and not source.rstrip("/").endswith("/head"):
            source = _base(source) + "/head"
        head = self.document(source, "head")
        for problem in documents.signature_problems(head, keys, what):
            self.problem(problem)
        try:
            documents.head_root(head)
        except ValueError as error:
            self.problem(f"{what}: {error}")
        return head

    def proof(self, given: str | None, base: str | None, option: str,
              query: str) -> dict[str, Any]:
        if given is not None and not (_is_url(given) and _is_base(given)):
            return self.document(given, "proof")
        if given is not None:
            base = _base(given)
        if base is None:
            raise click.UsageError(sentence("no_proof", what=option))
        return self.document(f"{base}/{query}", "proof")

    # ------------------------------------------------------------------ reading things

    def keys(self, given: str | None, base: str | None, option: str) -> list[Any]:
        from referee.seal.keys import KeyFormatError, read_keys

        if given is None:
            if base is None:
                raise click.UsageError(sentence("no_keys", what=option))
            given = base.rsplit("/transparency", 1)[0] + "/keys"
            self.outcome["notes"].append(sentence("fetched_keys"))
        if _is_url(given):
            text = self.fetch(given)
        elif os.path.isfile(given):  # (pathlib's raised for a key's text too long for a name)
            text = _text(given, self.read(given))
        else:
            text = given
        try:
            return read_keys(text)
        except KeyFormatError as error:
            _fail(sentence("bad_key", reason=error))

    def document(self, source: str, kind: str) -> dict[str, Any]:
        """A JSON object from a file or a URL (exit 2 if it cannot be had, or is not one)."""
        from referee.seal.documents import TREE_HEAD_FORMAT

        text = self.fetch(source) if _is_url(source) else _text(source, self.read(source))
        try:
            value = json.loads(text, parse_constant=reject_constant, object_pairs_hook=unique_keys)
        except (ValueError, RecursionError) as error:  # RepeatedKey included
            # where and what, in the caller's language (json's own message is English)
            _fail(sentence("not_json", source=source, reason=json_problem(error, lines=True)))
        if not isinstance(value, dict):
            _fail(sentence("not_object", source=source))
        if kind == "acta" and value.get("format") not in sheet.FORMATS:
            _fail(sentence("not_acta", source=source, format=repr(value.get("format"))))
        if kind == "head" and value.get("format") != TREE_HEAD_FORMAT:
            _fail(sentence("not_head", source=source, format=repr(value.get("format"))))
        return value

    @staticmethod
    def read(path: str) -> bytes:
        """The file at ``path`` as a log is read (logfiles.read_bytes): a line longer than a
        log's may be stops the reading; a file that cannot be read is said as a log's is."""
        try:
            return read_bytes(path)
        except LogError as error:
            _fail(log_problem(path, error))

    def fetch(self, url: str) -> str:
        """The body at ``url``, read as a log is (read_capped: an endless line stops at a log
        line's limit); asked in the reader's language, so a refusal's detail is in it too."""
        import http.client
        import urllib.error
        import urllib.request

        import words
        from words.oserrors import reason

        request = urllib.request.Request(url, headers={"Accept": "application/json",
                                                       "Accept-Language": words.current()})
        if self.token:
            # an HTTP header holds ASCII alone, and a newline would end it: http.client's
            # refusal read as a URL's
            if not (self.token.isascii() and self.token.isprintable() and " " not in self.token):
                _fail(sentence("bad_token"))
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                return _text(url, read_capped(response))
        except urllib.error.HTTPError as error:
            why = sentence("http_status", status=error.code, detail=_detail(error))
        except urllib.error.URLError as error:  # reason: the OSError under it, or a text
            cause = error.reason
            why = reason(cause) if isinstance(cause, BaseException) else sentence("not_a_url")
        except LogError as error:
            _fail(log_problem(url, error))
        except (ValueError, http.client.InvalidURL):  # a URL that cannot be asked for (no
            # host, a space, a control): urllib's and http.client's (an HTTPException: first)
            why = sentence("not_a_url")
        except (OSError, http.client.HTTPException) as error:  # a hang-up, a header too long
            why = reason(error)
        _fail(sentence("unfetchable", source=url, reason=why))

    # --------------------------------------------------------------------- the outcome

    def problem(self, text: str) -> None:
        self.outcome["problems"].append(text)

    def flag(self, text: str) -> None:
        self.flagged = True
        self.outcome["notes"].append(text)

    def finish(self, as_json: bool) -> NoReturn:
        failed = bool(self.outcome["problems"])
        status = FAILED if failed else FLAGGED if self.flagged else CLEAN
        self.outcome.update(ok=not failed, status=status)
        if as_json:
            click.echo(json.dumps(self.outcome))
        else:
            for line in self.lines:
                click.echo(line)
            for note in self.outcome["notes"]:
                click.echo(click.style(f"NOTE {note}", fg="yellow"))
            for problem in self.outcome["problems"]:
                click.echo(click.style(f"FAIL {problem}", fg="red"))
        sys.exit(status)


def _is_url(source: str) -> bool:
    return source.startswith(("https://", "http://"))


def _is_base(url: str) -> bool:
    """Whether ``url`` names a club's transparency log (or its head) rather than one proof."""
    path = url.split("?", 1)[0].rstrip("/")
    return path.endswith("/transparency") or path.endswith("/transparency/head")


def _base(url: str) -> str:
    """The club's transparency URL from it or from its head's."""
    path = url.split("?", 1)[0].rstrip("/")
    return path[: -len("/head")] if path.endswith("/head") else path


def _text(source: str, data: bytes) -> str:
    """``data`` as UTF-8; else exit 2, said as a log's reader says it, translated."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        _fail(sentence("not_json", source=source, reason=_(
            "the text is not UTF-8 (byte %(byte)s)", byte=error.start)))


def _detail(error: Any) -> str:
    """What a server's refusal says: its problem's ``detail``, else the start of its body, with
    every control character (a terminal's escape among them) as U+FFFD."""
    import http.client

    try:
        body = error.read(MAX_DETAIL_BYTES) if error.fp is not None else b""
    except (OSError, http.client.HTTPException):  # the refusal cut short: its status alone
        body = b""
    text = body.decode("utf-8", "replace")
    try:
        problem = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        problem = None
    if isinstance(problem, dict) and isinstance(problem.get("detail"), str):
        text = problem["detail"]
    return "".join(ch if ch.isprintable() else "\ufffd" for ch in text[:DETAIL_CHARS])


def _fail(message: str) -> NoReturn:
    click.echo(click.style(message, fg="red"), err=True)
    sys.exit(UNREADABLE)


def _read_log(path: str) -> MatchLog:
    try:
        # validate's reader: stops at a line longer than a log's may be; a file it cannot
        # read is said as "PATH: cannot read the file: WHY"
        return read_file(path)
    except LogError as error:
        _fail(log_problem(path, error))

