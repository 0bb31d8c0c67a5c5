export const CONSOLE_STYLE = ``;
