export * from './auth';
export * from './brand';
export * from './chat';
export * from './chat-resync';
export * from './common';
export * from './leads';
export * from './socket';
export * from './paths';
