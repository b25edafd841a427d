export * from "./types";
export * from "./state";
