import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'terms'>

export const data = dataHook('terms')
