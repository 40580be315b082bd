<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="fivefoot" tilewidth="32" tileheight="32" tilecount="24" columns="8">
 <image source="fivefoot_tiles.png" width="256" height="96"/>
 <!-- floor -->
 <tile id="0" type="terrain"/>
 <!-- wall -->
 <tile id="1" type="terrain">
  <properties>
   <property name="wall" type="bool" value="true"/>
  </properties>
 </tile>
 <!-- tree -->
 <tile id="2" type="terrain">
  <properties>
   <property name="blocks_move" type="bool" value="true"/>
   <property name="cover" type="string" value="1/2"/>
   <property name="height" type="int" value="30"/>
  </properties>
 </tile>
 <!-- brush -->
 <tile id="3" type="terrain">
  <properties>
   <property name="concealment" type="string" value="1/4"/>
   <property name="difficult" type="bool" value="true"/>
  </properties>
 </tile>
 <!-- fog -->
 <tile id="4" type="terrain">
  <properties>
   <property name="concealment" type="string" value="1/2"/>
  </properties>
 </tile>
 <!-- water -->
 <tile id="5" type="terrain">
  <properties>
   <property name="water" type="bool" value="true"/>
  </properties>
 </tile>
 <!-- low_wall -->
 <tile id="6" type="terrain">
  <properties>
   <property name="cover" type="string" value="1/2"/>
   <property name="difficult" type="bool" value="true"/>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <!-- door -->
 <tile id="7" type="terrain">
  <properties>
   <property name="door" type="bool" value="true"/>
  </properties>
 </tile>
 <!-- closed_door -->
 <tile id="8" type="terrain">
  <properties>
   <property name="door" type="bool" value="true"/>
   <property name="blocks_move" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" value="full"/>
   <property name="height" type="int" value="10"/>
  </properties>
 </tile>
 <!-- stairs -->
 <tile id="9" type="terrain"/>
 <!-- rubble -->
 <tile id="10" type="terrain">
  <properties>
   <property name="difficult" type="bool" value="true"/>
  </properties>
 </tile>
 <!-- cliff -->
 <tile id="11" type="terrain"/>
 <!-- grass -->
 <tile id="12" type="terrain"/>
 <!-- road -->
 <tile id="13" type="terrain"/>
 <!-- hedge -->
 <tile id="14" type="terrain">
  <properties>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="difficult" type="bool" value="true"/>
   <property name="cover" type="string" value="1/4"/>
   <property name="height" type="int" value="5"/>
  </properties>
 </tile>
 <!-- boulder -->
 <tile id="15" type="terrain">
  <properties>
   <property name="blocks_move" type="bool" value="true"/>
   <property name="cover" type="string" value="3/4"/>
   <property name="height" type="int" value="6"/>
  </properties>
 </tile>
 <!-- parapet -->
 <tile id="16" type="terrain">
  <properties>
   <property name="cover" type="string" value="1/2"/>
   <property name="difficult" type="bool" value="true"/>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <!-- wall_walk -->
 <tile id="17" type="terrain"/>
 <!-- sand -->
 <tile id="18" type="terrain"/>
 <!-- mesa -->
 <tile id="19" type="terrain"/>
 <!-- pillar -->
 <tile id="20" type="terrain">
  <properties>
   <property name="wall" type="bool" value="true"/>
  </properties>
 </tile>
 <!-- gate -->
 <tile id="21" type="terrain">
  <properties>
   <property name="door" type="bool" value="true"/>
  </properties>
 </tile>
 <!-- mud -->
 <tile id="22" type="terrain">
  <properties>
   <property name="difficult" type="bool" value="true"/>
  </properties>
 </tile>
 <!-- reeds -->
 <tile id="23" type="terrain">
  <properties>
   <property name="water" type="bool" value="true"/>
   <property name="difficult" type="bool" value="true"/>
   <property name="concealment" type="string" value="1/4"/>
  </properties>
 </tile>
</tileset>
