// The table's sounds, made with the Web Audio API (no sound files): a chime when it is your turn,
// a soft tap when a card is played. Whoever plays them asks the settings first (sounds are off
// unless the player switched them on). A browser lets a page make sounds only after a click or
// a key on it: until then, nothing is made, and no audio is set up at all.

let context = null;

/** The page's audio context, made on the first sound after a gesture; null before one. */
function audio() {
  if (!context) {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context || navigator.userActivation?.hasBeenActive === false) return null;
    try {
      context = new Context();
    } catch {
      return null;
    }
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Called from a gesture (the switch that turns sounds on): the audio may start now. */
export function unlockSound() {
  audio();
}

/** One soft tone: `frequency` Hz from `start` seconds on, for `length` seconds. */
function tone(ctx, { frequency, start = 0, length = 0.15, volume = 0.08, type = "sine" }) {
  const at = ctx.currentTime + start;
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, at);
  // A quick rise and a gentle fall: no click at either end.
  gain.gain.setValueAtTime(0, at);
  gain.gain.linearRampToValueAtTime(volume, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(at);
  oscillator.stop(at + length + 0.02);
}

const SOUNDS = new Map([
  // Your turn: two rising notes.
  ["turn", [{ frequency: 660, length: 0.16 }, { frequency: 880, start: 0.13, length: 0.22 }]],
  // A card played: a short low tap.
  ["card", [{ frequency: 240, length: 0.07, volume: 0.1, type: "triangle" }]],
]);

/** Make the sound `name` ("turn" or "card") after `delay` seconds, when the page may. */
export function playSound(name, delay = 0) {
  const ctx = audio();
  const tones = SOUNDS.get(name);
  if (!ctx || !tones) return;
  for (const t of tones) tone(ctx, { ...t, start: (t.start ?? 0) + delay });
}
