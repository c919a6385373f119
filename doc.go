// Package perfilseguro holds the domain of Perfil Seguro: the types, rules and
// service/provider interfaces that the api, worker, postgres and provider
// packages implement or use. It imports no outside technology.
package perfilseguro
