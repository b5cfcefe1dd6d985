import { type PageData, dataHook } from '../../../lib/pageData.server'

export type Data = PageData<'newsletter'>

export const data = dataHook('newsletter')
