/** `@agentgen/runtime`: the contract constants. The server and client live at `./server` and `./client`. */
export * from './contract.js';
