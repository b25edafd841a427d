// Placeholder: the worker host lands with the "Agent workers" issue.
export {};
