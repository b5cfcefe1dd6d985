import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'about'>

export const data = dataHook('about')
