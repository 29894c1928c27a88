// The turn timer's countdown, on the seat whose time runs and on the turn line, and the notice
// that stays while the stand-in bot plays for this seat because its time ran out.
import { byId as $, element } from "./dom.js";
import { S, send } from "./table-state.js";

// The turn timer of the last update: the seat it runs for and when it runs out
// (performance.now() milliseconds); null when none runs. And the interval that ticks it.
let timer = null;
let ticking = null;

/** Whether the turn timer runs for `seat`. */
export function runsFor(seat) {
  return timer?.seat === seat;
}

/** A countdown of the running turn timer, kept up to date by `tick` ("long": "12 s left"; the
 * short one, on the seat, is drawn with a clock face by the style sheet). */
export function countdown(kind) {
  // A timer role, not announced each second (the turn line around it is a live region).
  const el = element("span", {
    className: `countdown ${kind}`, dataset: { countdown: kind }, role: "timer", "aria-live": "off",
  });
  showCountdown(el, secondsLeft());
  return el;
}

function secondsLeft() {
  return timer ? Math.max(0, Math.ceil((timer.deadline - performance.now()) / 1000)) : 0;
}

function showCountdown(el, left) {
  el.textContent = el.dataset.countdown === "long" ? `${left} s left` : `${left} s`;
  el.classList.toggle("urgent", left <= 5);
}

/** The update's timer counts down here from the seconds it had left when it was sent. */
export function setTimer(next) {
  timer = next ? { seat: next.seat, deadline: performance.now() + next.seconds * 1000 } : null;
  clearInterval(ticking);
  ticking = timer ? setInterval(tick, 250) : null;
}

function tick() {
  const left = secondsLeft();
  for (const el of document.querySelectorAll("#table-view [data-countdown]")) showCountdown(el, left);
}

/** The server's notice stays until the seat is back from its stand-in (`I'm back`, or a move). */
export function showNotice(message) {
  $("notice-text").textContent = message;
  $("notice").hidden = false;
}

export function renderNotice() {
  const mine = S.seat === null ? null : S.table.seats[S.seat];
  if (!mine?.away) $("notice").hidden = true;
  else if ($("notice").hidden) {
    // Came back to the page while away (a reload): the notice went to the old connection.
    showNotice(`Your time ran out: ${S.table.stand_in} plays for you until you act again.`);
  }
}

export function comeBack() {
  send({ type: "back" });
}
