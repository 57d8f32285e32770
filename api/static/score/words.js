/* An event in words, as the server says it (words/events.py): the page embeds the server's
   table of sentences (messages.events, translated among the messages), and an event is said by
   the first of its type whose placeholders it fills and whose "when" it meets. So a tap is said
   the same way offline as once recorded, and no sentence is written here. The round results and
   the phase line are the screen's own words (screen.said). */
import {_, ngettext} from "./i18n.js";

function embedded() {
  const node = document.getElementById("messages");
  try {
    return (node && JSON.parse(node.textContent)) || {};
  } catch (error) {
    return {};
  }
}

const {events: SENTENCES = [], reasons: REASONS = []} = embedded();

// A match's table as people read it (words/events.py table_words): a number after the word
// "table" ("mesa 7"), a label the club wrote as a name as written ("Mesa 2", not "mesa Mesa 2").
export function tableWords(label) {
  const text = String(label).trim();
  return /^[0-9]/.test(text) ? _("table %(table)s", {table: text}) : text;
}

function seatName(seat, players) {
  if (!Number.isInteger(seat) || seat < 0 || seat >= players.length) return undefined;
  const name = players[seat];
  const twice = players.filter((other) => other === name).length > 1;
  return twice ? _("%(name)s (seat %(seat)s)", {name: name, seat: seat + 1}) : name;
}

function hands(value) {
  if (value === undefined || value === null) return "none";
  if (!Array.isArray(value) || !value.length) return undefined;
  const seen = value.filter((hand) => hand !== null).length;
  return seen === value.length ? "all" : seen ? "some" : "none";
}

// What the event's sentences are filled with (words/events.py params()).
function params(event, players, sides, rules) {
  const found = {
    who: seatName(event.seat, players),
    side: Number.isInteger(event.side) ? sides[event.side] : undefined,
    hands: event.type === "deal" ? hands(event.hands) : undefined,
    reason: typeof event.reason === "string"
      ? (REASONS.includes(event.reason) ? _(event.reason) : event.reason) : undefined,
    tile: typeof event.tile === "string" ? event.tile : undefined,
    text: typeof event.text === "string" ? event.text : undefined,
    end: Number.isInteger(event.end) || ["left", "right", "up", "down"].includes(event.end) ? String(event.end) : undefined,
    tiles: Array.isArray(event.tiles) ? event.tiles.join(" ") : undefined,
  };
  for (const name of ["target", "pips", "points"]) {
    if (Number.isInteger(event[name])) found[name] = event[name];
  }
  if (event.event && typeof event.event === "object") found.event = describe(event.event, players, sides, rules);
  return Object.fromEntries(Object.entries(found).filter(([, value]) => value !== undefined));
}

function fits(sentence, event, values) {
  return sentence.kind === event.type && sentence.needs.every((name) => name in values)
    && Object.entries(sentence.when).every(([name, value]) => values[name] === value)
    && (sentence.count === null || sentence.count in values);
}

// An event as the message line and the undo button name it: "Ana played 6-5". The screen's
// rules pick the family's words: a pass of the points family is a knock.
export function describe(event, players, sides, rules) {
  if (!event || typeof event !== "object") return _("an event that cannot be read");
  const values = params(event, players, sides || players, rules);
  if (rules && rules.scoring === "ends") values.knock = "yes";
  const sentence = SENTENCES.find((s) => fits(s, event, values));
  if (!sentence) return _("an event that cannot be read");
  return sentence.plural ? ngettext(sentence.text, sentence.plural, values[sentence.count], values)
                         : _(sentence.text, values);
}

// The score by side, as the table reads it: "Ana & Carla 34, Beto & Dani 12".
export function scoreText(screen) {
  return screen.sides.map((side, i) => _("%(side)s %(points)s", {side: side, points: screen.totals[i]}))
    .join(_(", "));
}

// The clock of a timed match: the time since started (ISO date-time), "1:05:09" or "12:04".
export function elapsed(started, now) {
  const seconds = Math.max(0, Math.floor((now - Date.parse(started)) / 1000));
  const two = (n) => String(n).padStart(2, "0");
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
}
