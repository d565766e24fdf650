// @ts-check
// Offer a text as a file to download (a record, the local data, a report).

/** The last file offered (the browser tests read it: not every browser they drive reports downloads). */
export const lastSaved = { name: "", text: "" };

/**
 * @param {string} name the file's name
 * @param {string} text its content (JSON)
 */
export function saveFile(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  Object.assign(lastSaved, { name, text });
}
