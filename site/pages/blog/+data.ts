import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'blog'>

export const data = dataHook('blog')
