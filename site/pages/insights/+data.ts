import { type PageData, dataHook } from '../../lib/pageData.server'

export type Data = PageData<'insights'>

export const data = dataHook('insights')
