export { createFishlogClient, ok, type FishlogClient, type FishlogClientOptions, type SignOutEvent } from './client.js';
export { FishlogProblem, type ProblemBody, type ProblemFieldError } from './problem.js';
export { memoryTokenStore, type TokenSet, type TokenStore } from './tokens.js';
export type { Call, CallArgs, CallInit, FishlogResult, HttpMethod, ListItem, ListPath, PathsWith, ProblemStatus, SuccessData } from './types.js';
export type { components, operations, paths } from './schema.js';
