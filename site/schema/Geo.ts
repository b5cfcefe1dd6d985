export type Geo = { latitude: number, longitude: number, };
