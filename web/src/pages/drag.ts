/**
 * Dragging on a board (issue 28, item 5): a board's places to pick (`data-pick` inside its SVG)
 * answer the press itself, so pressing a checker (a piece, a tile) picks it up at once and shows
 * where it may go; releasing over another place drops it there, as a second click would. A press
 * and release on one place is the click it always was, and the keyboard (Enter, Space) and the
 * board's HTML buttons (undo, put back) keep their clicks. Answers how to stop listening.
 */
export function dragPicks(app: HTMLElement, pick: (token: string) => void): () => void {
  let pressed: string | null = null;
  const placeAt = (target: EventTarget | Element | null): HTMLElement | null => {
    const el = target instanceof Element ? target.closest<HTMLElement>('svg [data-pick]') : null;
    return el && app.contains(el) ? el : null;
  };
  const down = (e: PointerEvent) => {
    const place = e.button === 0 ? placeAt(e.target) : null;
    if (!place) return;
    pressed = place.dataset.pick ?? null;
    // Not a text selection or a scroll: the checker is in hand.
    e.preventDefault();
    if (pressed !== null) pick(pressed);
  };
  const up = (e: PointerEvent) => {
    const from = pressed;
    pressed = null;
    if (from === null) return;
    const to = placeAt(document.elementFromPoint(e.clientX, e.clientY))?.dataset.pick;
    if (to !== undefined && to !== from) pick(to);
  };
  const cancel = () => {
    pressed = null;
  };
  // The press did what the click would: a pointer's click on a place is not a second pick.
  const click = (e: MouseEvent) => {
    if (e.detail > 0 && placeAt(e.target)) e.stopImmediatePropagation();
  };
  app.addEventListener('pointerdown', down);
  app.addEventListener('click', click, true);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', cancel);
  return () => {
    app.removeEventListener('pointerdown', down);
    app.removeEventListener('click', click, true);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', cancel);
  };
}
