export * from './auth';
export * from './brand';
export * from './chat';
export * from './common';
export * from './continuity';
export * from './leads';
export * from './socket';
export * from './paths';
