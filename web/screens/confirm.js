// @ts-check
// The question before a costly step (claiming 66, resigning, abandoning a
// match in play): index.html's modal #confirm-dialog with the question and
// two buttons. Cancel, Escape and a click on the backdrop all answer no. It
// asks what it is given: the callers (game/) decide what asks first.

/**
 * An element of index.html's confirmation dialog (hence the cast).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * A click on ``dialog``'s backdrop closes it (returnValue unchanged: nothing chosen). Only a press
 * that began and ended outside the dialog's box counts, not a drag out of a text field.
 * @param {HTMLDialogElement} dialog
 */
export function closeOnBackdrop(dialog) {
  const outside = (/** @type {MouseEvent} */ event) => {
    if (event.target !== dialog) return false;
    const box = dialog.getBoundingClientRect();
    return (
      event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom
    );
  };
  let pressedOutside = false;
  dialog.addEventListener("pointerdown", (event) => {
    pressedOutside = outside(event);
  });
  dialog.addEventListener("click", (event) => {
    if (pressedOutside && outside(event)) dialog.close();
    pressedOutside = false;
  });
}

/**
 * Ask ``question`` (``ask`` names it for the tests: #confirm-dialog[data-ask]); resolves true if the
 * player presses ``yes`` (the words of the button that goes ahead). One question at a time: a second
 * one while the first is open is answered no.
 * @param {{ask: string, question: string, yes: string}} what
 * @returns {Promise<boolean>}
 */
export function confirmStep({ ask, question, yes }) {
  const dialog = /** @type {HTMLDialogElement} */ ($("confirm-dialog"));
  if (dialog.open) return Promise.resolve(false);
  if (!dialog.dataset.installed) {
    dialog.dataset.installed = "1";
    closeOnBackdrop(dialog);
  }
  dialog.dataset.ask = ask;
  $("confirm-question").textContent = question;
  $("confirm-yes").textContent = yes;
  dialog.returnValue = "";
  dialog.showModal();
  $("confirm-no").focus(); // the safe answer: Enter alone does nothing costly
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}
