import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'privacy'>

export const data = dataHook('privacy')
