// vendor/jsqr.mjs is the npm package jsqr (a UMD build) bundled as a module
// by build.py (see trystero.d.mts). Types only: the package's own.
import jsQR from "jsqr";
export default jsQR;
