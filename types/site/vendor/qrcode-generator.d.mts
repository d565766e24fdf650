// vendor/qrcode-generator.mjs is the npm package qrcode-generator, bundled
// by build.py (see trystero.d.mts). Types only: the package's own.
import qrcode from "qrcode-generator";
export default qrcode;
