/**
 * Style vocabulary: tokens of the yardstick (`future-needed.ts`) that are CSS words rather than handles an agent
 * would look up again. Defined here, by the benchmark, independently of the library's own noise rules, so that
 * `quality-turns` can give a second figure with these tokens left out of the needed set. A token is style
 * vocabulary when it is one of:
 * - a CSS number with a unit: `0.5rem`, `60px`, `1.5em`, `100vh`, `300ms`, `2fr` (digits, an optional fraction,
 *   then one of px rem em vh vw pt % s ms fr; `%` never reaches a yardstick token, it is listed for completeness);
 * - a hex colour: `#` and 3, 4 or 6 hex digits, or 6 hex digits without `#` holding a letter a-f (`4ade80`,
 *   `#1e293b`). The yardstick cuts the `#` off, so in practice it is 6 bare hex digits. 3 or 4 bare digits are not
 *   counted: they are error and rule codes (`E334`, `E001` of Django's system checks) far more often than colours.
 *   8 hex digits (a colour with alpha) are not counted either: 8 hex digits is also a plausible abbreviated commit
 *   id or hash prefix, and git abbreviates commit ids to at least 7 digits, so 6 cannot be one. A 6-digit
 *   placeholder id (`abc123`) is the one confusion left;
 * - a standard CSS property name (`font-size`, `margin-bottom`, `justify-content`), also with a vendor prefix
 *   (`-webkit-box-shadow`, written without its leading dash as the yardstick cuts it).
 * Framework attributes (`phx-click`) and utility classes (`mb-4`) are not CSS and are not counted.
 */

const CSS_NUMBER = /^-?\d*\.?\d+(?:px|rem|em|vh|vw|pt|%|s|ms|fr)$/;
const HASH_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6})$/;
const BARE_COLOUR = /^(?=[0-9]*[a-fA-F])[0-9a-fA-F]{6}$/;

/** A hex colour by the rule above. */
function isHexColour(token: string): boolean {
  return HASH_COLOUR.test(token) || BARE_COLOUR.test(token);
}

const VENDOR_PREFIX = /^-?(?:webkit|moz|ms|o)-/;

/** Standard CSS property names (longhands and shorthands), written for this benchmark. */
const CSS_PROPERTIES = new Set(
  `
align-content align-items align-self all animation animation-delay animation-direction animation-duration
animation-fill-mode animation-iteration-count animation-name animation-play-state animation-timing-function
appearance aspect-ratio backdrop-filter backface-visibility background background-attachment background-blend-mode
background-clip background-color background-image background-origin background-position background-position-x
background-position-y background-repeat background-size block-size border border-block border-block-end
border-block-start border-bottom border-bottom-color border-bottom-left-radius border-bottom-right-radius
border-bottom-style border-bottom-width border-collapse border-color border-image border-image-outset
border-image-repeat border-image-slice border-image-source border-image-width border-inline border-inline-end
border-inline-start border-left border-left-color border-left-style border-left-width border-radius border-right
border-right-color border-right-style border-right-width border-spacing border-style border-top border-top-color
border-top-left-radius border-top-right-radius border-top-style border-top-width border-width bottom
box-decoration-break box-shadow box-sizing break-after break-before break-inside caption-side caret-color clear
clip clip-path color color-scheme column-count column-fill column-gap column-rule column-rule-color
column-rule-style column-rule-width column-span column-width columns contain container container-name
container-type content content-visibility counter-increment counter-reset counter-set cursor direction display
empty-cells filter flex flex-basis flex-direction flex-flow flex-grow flex-shrink flex-wrap float font
font-family font-feature-settings font-kerning font-size font-size-adjust font-stretch font-style font-variant
font-variant-caps font-variant-numeric font-weight gap grid grid-area grid-auto-columns grid-auto-flow
grid-auto-rows grid-column grid-column-end grid-column-gap grid-column-start grid-gap grid-row grid-row-end
grid-row-gap grid-row-start grid-template grid-template-areas grid-template-columns grid-template-rows
hanging-punctuation height hyphens image-rendering inline-size inset inset-block inset-inline isolation
justify-content justify-items justify-self left letter-spacing line-break line-height list-style
list-style-image list-style-position list-style-type margin margin-block margin-block-end margin-block-start
margin-bottom margin-inline margin-inline-end margin-inline-start margin-left margin-right margin-top mask
mask-image max-block-size max-height max-inline-size max-width min-block-size min-height min-inline-size
min-width mix-blend-mode object-fit object-position opacity order orphans outline outline-color outline-offset
outline-style outline-width overflow overflow-anchor overflow-wrap overflow-x overflow-y overscroll-behavior
padding padding-block padding-block-end padding-block-start padding-bottom padding-inline padding-inline-end
padding-inline-start padding-left padding-right padding-top page-break-after page-break-before
page-break-inside perspective perspective-origin place-content place-items place-self pointer-events position
quotes resize right rotate row-gap scale scroll-behavior scroll-margin scroll-margin-top scroll-padding
scroll-padding-top scroll-snap-align scroll-snap-type scrollbar-color scrollbar-gutter scrollbar-width
tab-size table-layout text-align text-align-last text-decoration text-decoration-color text-decoration-line
text-decoration-style text-decoration-thickness text-indent text-justify text-overflow text-rendering
text-shadow text-transform text-underline-offset top touch-action transform transform-origin transform-style
transition transition-delay transition-duration transition-property transition-timing-function translate
unicode-bidi user-select vertical-align visibility white-space widows width will-change word-break
word-spacing word-wrap writing-mode z-index
`
    .split(/\s+/)
    .filter((name) => name.length > 0),
);

/** Whether `name` is a standard CSS property name (case-insensitive, a vendor prefix allowed). */
export function isCssProperty(name: string): boolean {
  return CSS_PROPERTIES.has(name.toLowerCase().replace(VENDOR_PREFIX, ''));
}

/** Whether a yardstick token is style vocabulary by the rule above. */
export function isStyleVocabulary(token: string): boolean {
  return CSS_NUMBER.test(token) || isHexColour(token) || isCssProperty(token);
}

/** The tokens of `tokens` that are not style vocabulary. */
export function withoutStyleVocabulary(tokens: readonly string[]): string[] {
  return tokens.filter((token) => !isStyleVocabulary(token));
}
