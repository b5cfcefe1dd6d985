import type { Weekday } from "./Weekday";
export type OpeningHours = { days: Array<Weekday>, opens: string, closes: string, };
