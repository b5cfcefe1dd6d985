import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'industries'>

export const data = dataHook('industries')
