import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'case-studies'>

export const data = dataHook('case-studies')
