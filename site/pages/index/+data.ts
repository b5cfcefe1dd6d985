import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'home'>

export const data = dataHook('home')
