import { type PageData, dataHook } from '../../../lib/pageData.server'

export type Data = PageData<'contact-sent'>

export const data = dataHook('contact-sent')
