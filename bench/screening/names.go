package screening_test

// Name lists the generator draws from, most frequent first; draw() weights them Zipf-like, so
// "Hernández" and "María" are as crowded in the index as they are in Mexico. Mexican surnames
// follow the order of the most frequent surnames in Mexico (RENAPO/INEGI frequency tables as
// commonly reported); given names, the most registered ones; the international lists mix the
// names common on sanctions lists (Arabic, Russian, Chinese, English, French, Spanish).
var (
	mxGiven = []string{
		"María", "José", "Juan", "Guadalupe", "Francisco", "Luis", "Carlos", "Jesús", "Miguel", "Antonio",
		"Alejandro", "Pedro", "Manuel", "Ana", "Jorge", "Ricardo", "Fernando", "Rosa", "Javier", "Roberto",
		"Eduardo", "Daniel", "Sergio", "Martha", "Patricia", "Margarita", "Elizabeth", "Verónica", "Leticia",
		"Alberto", "Raúl", "Mario", "Arturo", "Rafael", "Gabriela", "Alejandra", "Laura", "Silvia", "Adriana",
		"Teresa", "Claudia", "Héctor", "Enrique", "Martín", "Gerardo", "Óscar", "Víctor", "Ángel", "Ramón",
		"Armando", "Alfredo", "Salvador", "Hugo", "Andrés", "Sofía", "Fernanda", "Valeria", "Ximena", "Camila",
		"Regina", "Diego", "Santiago", "Mateo", "Emiliano", "Leonardo", "Sebastián", "Iván", "Gustavo",
		"Isabel", "Lucía", "Carmen", "Josefina", "Yolanda", "Cristina", "Mónica", "Beatriz", "Irma", "Elena",
		"Norma", "Alicia", "Rocío", "Susana", "Lorena", "Karla", "Brenda", "Diana", "Paola", "Jazmín",
		"Abraham", "Rodrigo", "Ernesto", "Joaquín", "Ignacio", "Rubén", "Julio", "César", "Ismael", "Felipe",
	}
	mxSurnames = []string{
		"Hernández", "García", "Martínez", "López", "González", "Pérez", "Rodríguez", "Sánchez", "Ramírez",
		"Cruz", "Flores", "Gómez", "Morales", "Vázquez", "Reyes", "Jiménez", "Torres", "Díaz", "Gutiérrez",
		"Ruiz", "Mendoza", "Aguilar", "Ortiz", "Moreno", "Castillo", "Romero", "Álvarez", "Méndez", "Chávez",
		"Rivera", "Juárez", "Ramos", "Domínguez", "Herrera", "Medina", "Castro", "Vargas", "Guzmán",
		"Velázquez", "Muñoz", "Rojas", "Contreras", "Salazar", "Luna", "Ortega", "Santiago", "Guerrero",
		"Estrada", "Bautista", "Cortés", "Soto", "Alvarado", "Espinoza", "Lara", "Ávila", "Ríos", "Cervantes",
		"Silva", "Delgado", "Vega", "Márquez", "Sandoval", "Fernández", "León", "Carrillo", "Mejía", "Solís",
		"Núñez", "Rosas", "Valdez", "Ibarra", "Campos", "Santos", "Camacho", "Navarro", "Peña", "Maldonado",
		"Rosales", "Acosta", "Miranda", "Trejo", "Valencia", "Nava", "Pacheco", "Huerta", "Padilla", "Molina",
		"Cabrera", "Fuentes", "Zúñiga", "Meza", "Ayala", "Villanueva", "Robles", "Cárdenas", "Orozco",
		"Escobar", "Salinas", "Aguirre", "Pineda", "Quintero", "Barragán", "Zepeda", "Ochoa", "Beltrán",
		"Galindo", "Tapia", "Arellano", "Montes", "Villarreal", "Serrano", "Olvera", "Cisneros", "Córdova",
		"De la Cruz", "Del Ángel", "De León", "Sosa", "Benítez", "Cano", "Lozano", "Esquivel", "Arias",
	}
	intlGiven = []string{
		"Mohammed", "Ahmed", "Ali", "Abdullah", "Omar", "Hassan", "Hussein", "Ibrahim", "Yusuf", "Khalid",
		"Mahmoud", "Mustafa", "Abdul Rahman", "Saeed", "Hamid", "Karim", "Tariq", "Bilal", "Fatima", "Aisha",
		"Aleksandr", "Sergei", "Dmitry", "Andrei", "Alexei", "Vladimir", "Nikolai", "Igor", "Olga", "Natalia",
		"Wei", "Jun", "Li", "Ming", "Hui", "Yong", "John", "David", "Michael", "James", "Robert", "William",
		"Jean", "Pierre", "Emmanuel", "Joseph", "Paul", "Moses", "Samuel", "Abdi", "Ismail", "Yassin",
	}
	intlSurnames = []string{
		"Al-Hashimi", "Al-Qahtani", "Al-Masri", "Al-Shami", "Haddad", "Khan", "Rahman", "Hussain", "Abbas",
		"Mansour", "Nasser", "Saleh", "Karimi", "Hosseini", "Ivanov", "Smirnov", "Kuznetsov", "Popov",
		"Volkov", "Sokolov", "Lebedev", "Kozlov", "Novikov", "Morozov", "Petrov", "Kovalenko", "Shevchenko",
		"Wang", "Li", "Zhang", "Liu", "Chen", "Yang", "Kim", "Park", "Choi", "Smith", "Johnson", "Brown",
		"Williams", "Dubois", "Martin", "Bernard", "Mukendi", "Ndayishimiye", "Diallo", "Traoré", "Okafor",
		"Mohamed", "Warsame", "Farah", "Guled", "Noor", "Osman", "Yilmaz", "Kaya", "Demir",
	}
	// cyrillicOf writes some Russian surnames as the UN list's NAME_ORIGINAL_SCRIPT would.
	cyrillicOf = map[string]string{
		"Ivanov": "Иванов", "Smirnov": "Смирнов", "Kuznetsov": "Кузнецов", "Popov": "Попов", "Volkov": "Волков",
		"Sokolov": "Соколов", "Lebedev": "Лебедев", "Kozlov": "Козлов", "Novikov": "Новиков", "Morozov": "Морозов",
		"Petrov": "Петров",
	}
	nicknames = []string{"El Güero", "La Flaca", "El Chino", "El Contador", "El Ingeniero", "La Jefa", "El Profe", "El Flaco", "El Negro", "La Güera"}
)
