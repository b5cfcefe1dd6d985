export { data } from '../../+data'
export type { Data } from '../../+data'
