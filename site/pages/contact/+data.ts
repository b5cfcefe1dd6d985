import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'contact'>

export const data = dataHook('contact')
