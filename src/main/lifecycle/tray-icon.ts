/**
 * The tray's (menu bar's) icon: Paddock's icon at 16 and 32 pixels (build/icons/, drawn by build/make-icon.mjs), as
 * PNG bytes in base64. Kept here because the packaged app carries only out/; a unit test
 * (test/unit/main/lifecycle/tray-icon.test.ts) fails when build/'s files change and these do not.
 */
export const TRAY_ICON_PNG_BASE64 = {
  16: "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAjklEQVR42mNgoBaQz3/dIJ//+r18/uv/BDBITQM2zf9JxA3IBqDY7Nn1/n/45A9wGpdLkA1AkTx++9d/ZPD47d//1o3vMAwhaABI49Unv8HsnZd+km4AzPkwQLIBINtBNoMASIxkA2Dg47d/4AAlywsgrFvxBmtMEDSAUFqgqgFYExKhJE29pExxZqIEAACCigR1NfPGjAAAAABJRU5ErkJggg==",
  32: "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAA8UlEQVR42mNgGAVYgHz+6wT5/Nf75fNf/6cSBpmVQIzFAlS2GJtDBPA5gJaWwx2BL9j/0wknDJTvcYcCIU3FSz//79/+FY49u97D2SA53Yo3JDmCZAccv/3rPz7w8du//43rvgycA2Bg7oFvA+sAEAif/IH2DoAFOcgydLnVJ3/Q3gHIQQ1KgMgApJbmDgClfmR5ujvg8du/4KwIkgOFBjLYeennwCZCULkwYA4gJvhp5gBQ0BNbIlLsAFAWBImBMCjbEZP3qeoASiukUQeMOoBkB4BKO1iqJzavk+qAAW+SDWyjdMCb5YOiYzLgXbMRCQDhcBQZO1B+OgAAAABJRU5ErkJggg==",
} as const;
