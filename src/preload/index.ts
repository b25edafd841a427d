import { contextBridge } from "electron";

contextBridge.exposeInMainWorld("paddock", { version: 1 });
