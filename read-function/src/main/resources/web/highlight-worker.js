// Highlights a paste off the page's thread, so that even a paste of the largest size never freezes the page:
// the page shows the plain text at once, and the lines take their colours when this answers. Answers with the
// highlighter's token tree (plain objects: {scope, children: [string | node]}), never with HTML: the page builds
// its elements from the tree, and the paste's text only ever becomes text nodes (docs/design.md, "Web page").
import hljs from '/assets/highlight.min.js';

/** What detection may pick from: common languages, so that prose is not taken for something exotic. */
const DETECTABLE = ['bash', 'c', 'cpp', 'csharp', 'css', 'diff', 'go', 'java', 'javascript', 'json', 'kotlin',
  'markdown', 'php', 'python', 'ruby', 'rust', 'sql', 'typescript', 'xml', 'yaml'];
/** Detection runs every candidate over its sample: a bounded prefix keeps it quick whatever the paste's size. */
const DETECTION_SAMPLE_CHARS = 16 * 1024;
/** Below this relevance a guess is noise (prose scores a few points in several languages). */
const MIN_RELEVANCE = 5;

self.onmessage = ({ data: { text, language } }) => {
  let chosen = language;
  let detected = false;
  if (!chosen) {
    const guess = hljs.highlightAuto(text.slice(0, DETECTION_SAMPLE_CHARS), DETECTABLE);
    if (!guess.language || guess.relevance < MIN_RELEVANCE) {
      self.postMessage({ language: null, detected: false, tree: null });
      return;
    }
    chosen = guess.language;
    detected = true;
  }
  if (chosen === 'plaintext' || !hljs.getLanguage(chosen)) {
    self.postMessage({ language: chosen, detected, tree: null });
    return;
  }
  const result = hljs.highlight(text, { language: chosen, ignoreIllegals: true });
  // _emitter.rootNode is the tree highlight() renders its HTML from (pinned by the vendored version; the browser
  // test fails if an update moves it): null makes the page keep the plain text.
  self.postMessage({ language: chosen, detected, tree: result._emitter?.rootNode ?? null });
};
