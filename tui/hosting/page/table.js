// The table's page: one xterm.js terminal, its app's output and input over the page's
// websocket, sized to the visual viewport, with a row of keys a soft keyboard lacks.
// Everything it loads comes from the table itself (no font or script from another host).
//
// The socket speaks JSON text messages to the table (["stdin", text], ["resize", {width,
// height}]; no ["blur"] when the soft keyboard goes down: the app keeps showing where its
// focus is) and gets the app's output as binary messages, its other
// messages as JSON (["open_url", {url, new_tab}], ["deliver_file_start", key]).
import { Terminal } from "./xterm.mjs";
import { FitAddon } from "./addon-fit.mjs";

// A phone in portrait holds this many columns across its short side (40 to 50 asked for).
const COLUMNS_ACROSS_A_PHONE = 45;
const FONT_AT_LEAST = 12;  // CSS px: no smaller on the narrowest phones
const FONT_AT_MOST = 16;  // CSS px: tablets and desktops
const FONT_FAMILY = getComputedStyle(document.body).fontFamily;
// A phone turned (table.css puts the keys at the side): the font shrinks, down to
// FONT_AT_LEAST, until this many rows fit (the app's screens need 20).
const TURNED = window.matchMedia("(min-aspect-ratio: 3/2) and (max-height: 500px)");
const ROWS_TURNED = 20;

// The font size that puts COLUMNS_ACROSS_A_PHONE columns across the screen's short side
// (the same in both orientations: turning the phone gives more columns, not bigger text).
function fontSize() {
  const context = document.createElement("canvas").getContext("2d");
  context.font = `100px ${FONT_FAMILY}`;
  const advance = context.measureText("W".repeat(10)).width / 1000 || 0.6;
  const across = Math.min(screen.width, screen.height) || window.innerWidth;
  const size = Math.floor(across / (COLUMNS_ACROSS_A_PHONE * advance));
  return Math.max(FONT_AT_LEAST, Math.min(FONT_AT_MOST, size));
}

// What a soft keyboard's line break stands for: Enter. (A paste's line breaks are turned
// into "\r" by xterm.js already.)
const LINE_BREAKS = new Set(["insertLineBreak", "insertParagraph"]);

export function typed(data) {
  return data.replace(/\r?\n/g, "\r");
}

class Table {
  constructor(element, socketUrl) {
    this.element = element;
    this.socketUrl = socketUrl;
    this.socket = null;
    this.fontSize = fontSize();
    this.terminal = new Terminal({
      fontSize: this.fontSize,
      fontFamily: FONT_FAMILY,
      scrollback: 0,
      cursorBlink: false,
      allowTransparency: false,
      macOptionIsMeta: true,
      theme: { background: "#0c181f" },
    });
    this.fitAddon = new FitAddon();
    this.terminal.loadAddon(this.fitAddon);
    this.terminal.open(element);
    this.numbers(true);
    this.terminal.onData(data => this.send(["stdin", typed(data)]));
    // A soft keyboard's Enter that comes as a line break put in the field, not as a key
    // (xterm.js takes and cancels the keys it sees, and drops a line break): Enter all the
    // same.
    this.terminal.textarea.addEventListener("beforeinput", event => {
      if (LINE_BREAKS.has(event.inputType) || (event.inputType === "insertText"
                                               && /^(\r?\n)+$/.test(event.data || ""))) {
        event.preventDefault();
        const count = Math.max(1, (event.data || "").split("\n").length - 1);
        this.terminal.input("\r".repeat(count), true);
      }
    });
    this.terminal.onBinary(data => this.send(["stdin", data]));
    this.terminal.onResize(({ cols, rows }) =>
      this.send(["resize", { width: cols, height: rows }]));
  }

  // The soft keyboard a tap on the terminal brings: a number pad, or letters.
  numbers(on) {
    this.terminal.textarea.setAttribute("inputmode", on ? "numeric" : "text");
    this.terminal.textarea.setAttribute("enterkeyhint", "enter");
    this.numeric = on;
  }

  send(message) {
    if (this.socket !== null && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }

  // The terminal fills #table but the key row: as many cells as fit; a phone turned, in
  // a font small enough for ROWS_TURNED rows.
  fit() {
    let size = this.proposed(this.fontSize);
    if (TURNED.matches) {
      for (let font = this.fontSize - 1; font >= FONT_AT_LEAST && size
           && size.rows < ROWS_TURNED; font--) {
        size = this.proposed(font);
      }
    }
    if (size && size.cols > 0 && size.rows > 0 &&
        (size.cols !== this.terminal.cols || size.rows !== this.terminal.rows)) {
      this.terminal.resize(size.cols, size.rows);
    }
  }

  proposed(font) {
    if (this.terminal.options.fontSize !== font) this.terminal.options.fontSize = font;
    return this.fitAddon.proposeDimensions();
  }

  connect() {
    this.fit();
    const url = new URL(this.socketUrl);
    url.searchParams.set("width", this.terminal.cols);
    url.searchParams.set("height", this.terminal.rows);
    const socket = this.socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    socket.addEventListener("message", event => {
      if (typeof event.data === "string") {
        this.told(JSON.parse(event.data));
      } else {
        document.body.classList.add("-first-byte");
        this.terminal.write(new Uint8Array(event.data));
      }
    });
    socket.addEventListener("close", () => {
      document.body.classList.add("-first-byte", "-closed");
    });
    this.terminal.focus();
  }

  told([kind, what]) {
    if (kind === "open_url" && what && /^https?:/.test(what.url)) {
      window.open(what.url, what.new_tab ? "_blank" : "_self", "noopener");
    } else if (kind === "deliver_file_start") {
      window.open(`/download/${encodeURIComponent(what)}`, "_blank", "noopener");
    }
  }
}

// #table takes the visual viewport: what is left of the screen once the soft keyboard is
// up, turned with the phone. Zoomed in by a pinch, the table keeps its size.
function place(table, root) {
  const viewport = window.visualViewport;
  if (viewport && viewport.scale > 1.01) return;
  const width = viewport ? viewport.width : window.innerWidth;
  const height = viewport ? viewport.height : window.innerHeight;
  root.style.width = `${Math.floor(width)}px`;
  root.style.height = `${Math.floor(height)}px`;
  root.style.top = `${viewport ? viewport.offsetTop : 0}px`;
  root.style.left = `${viewport ? viewport.offsetLeft : 0}px`;
  table.fit();
}

function keyRow(table, row) {
  for (const button of row.querySelectorAll("button")) {
    // A tap on a key leaves the focus (and so the soft keyboard) where it was.
    button.addEventListener("mousedown", event => event.preventDefault());
    button.addEventListener("pointerdown", event => event.preventDefault());
    button.addEventListener("click", () => {
      if (button.dataset.send !== undefined) {
        table.terminal.input(JSON.parse(button.dataset.send), true);
      } else if (button.id === "letters") {
        const typing = document.activeElement === table.terminal.textarea;
        table.numbers(!table.numeric);
        button.setAttribute("aria-pressed", String(!table.numeric));
        [button.textContent, button.dataset.other] = [button.dataset.other, button.textContent];
        if (typing) {  // the keyboard shown changes only as the field is focused again
          table.terminal.textarea.blur();
          table.terminal.focus();
        }
      }
    });
  }
}

function start() {
  const element = document.getElementById("terminal");
  const root = document.getElementById("table");
  const params = new URLSearchParams(window.location.search);
  const restart = () => {
    params.delete("delay");
    const query = params.toString();
    window.location.href = window.location.pathname + (query ? `?${query}` : "");
  };
  document.getElementById("start").addEventListener("click", restart);
  document.getElementById("restart").addEventListener("click", restart);
  if (params.has("delay")) {  // the page waits for a click before it sits down
    document.body.classList.add("-delay");
    return;
  }
  const table = new Table(element, element.dataset.sessionWebsocketUrl);
  keyRow(table, document.getElementById("keys"));
  const replace = () => place(table, root);
  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", replace);
    window.visualViewport.addEventListener("scroll", replace);
  }
  window.addEventListener("resize", replace);
  replace();
  document.fonts.ready.then(() => table.connect());
}

start();
