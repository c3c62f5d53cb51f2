// neo-blessed ships no types; src/tui/blessed.ts types the part the UI uses.
declare module 'neo-blessed';
