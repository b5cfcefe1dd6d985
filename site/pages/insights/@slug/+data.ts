import { type PageData, dataHook } from '../../../lib/pageData.server'

export type Data = PageData<'article'>

export const data = dataHook('article')
