/* The outbox: a request that must happen once, whatever the Wi-Fi does (a tap, a new match).
   It is kept in localStorage until an answer comes, with an Idempotency-Key made on the phone
   before the first try; with no answer (the network down, the answer lost, a 502, 503 or 504)
   it is sent again with the same key and the same body: after 0.5, 1, 2, 4, then every 5
   seconds, at once when the browser is online again, and when the page opens again after a
   reload. The server answers a retry of a stored request with the first answer. */
import {noAnswer, saving, serverBusy, showOnline} from "./net.js";
import {PREFIX, api, store} from "./session.js";

const DEVICE = PREFIX + "device";
const COUNTER = PREFIX + "counter";
const RETRY_MS = [500, 1000, 2000, 4000, 5000];
const BUSY = new Set([502, 503, 504]);

// phone-DEVICE-COUNTER: a random device id and a counter, both kept in localStorage.
export function newKey() {
  let device = store.getItem(DEVICE);
  if (!device) {
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    device = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    store.setItem(DEVICE, device);
  }
  const counter = Number(store.getItem(COUNTER) || "0") + 1;
  store.setItem(COUNTER, String(counter));
  return "phone-" + device + "-" + counter;
}

export class Outbox {
  // storageKey: where the request waits; answered(answer, item): called once, with the first
  // answer that is not "no answer" (the item is already out of the outbox); unanswered(item):
  // each time a try got no answer.
  constructor(storageKey, {answered, unanswered = () => {}}) {
    this.storageKey = storageKey;
    this.answered = answered;
    this.unanswered = unanswered;
    this.item = null;
    this.tries = 0;
    this.timer = null;
    this.sending = false;  // one try at a time: two at once could meet each other's 412
    window.addEventListener("online", () => this.send());
  }

  get busy() { return this.item !== null; }

  // item: {method, path, body (JSON), headers}; false when another is still out (a double tap).
  put(item) {
    if (this.busy) return false;
    this.item = Object.assign({key: newKey()}, item);
    store.setItem(this.storageKey, JSON.stringify(this.item));
    this.send();
    return true;
  }

  // A request kept from before a reload or a closed page, sent again; it is returned.
  resume() {
    const kept = store.getItem(this.storageKey);
    if (this.busy || !kept) return null;
    this.item = JSON.parse(kept);
    this.send();
    return this.item;
  }

  async send() {
    const item = this.item;
    if (!item || this.sending) return;
    clearTimeout(this.timer);
    saving();
    let answer;
    this.sending = true;
    try {
      answer = await api(item.method, item.path, {
        json: item.body, headers: Object.assign({"Idempotency-Key": item.key}, item.headers)});
    } catch (error) {  // no answer: it may or may not be stored; the same key again tells
      noAnswer();
      this.unanswered(item);
      this.retry(RETRY_MS[Math.min(this.tries++, RETRY_MS.length - 1)]);
      return;
    } finally {
      this.sending = false;
    }
    if (BUSY.has(answer.status)) {
      serverBusy();
      this.retry(Math.min(Number(answer.headers.get("Retry-After") || "2") * 1000, 5000));
      return;
    }
    this.item = null;
    this.tries = 0;
    store.removeItem(this.storageKey);
    showOnline();
    this.answered(answer, item);
  }

  retry(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.send(), ms);
  }
}
